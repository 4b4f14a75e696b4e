package io.kaas.bootstrap;

import io.kaas.domain.security.KafkaPrincipal;
import io.kaas.domain.security.SslPrincipalMapping;
import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Who may do what: whether ACLs are evaluated ({@code KAAS_AUTHORIZATION_TYPE=simple}), the super users
 * ({@code KAAS_SUPER_USERS}), how often {@code acls.json} is re-read ({@code KAAS_SECURITY_RELOAD_INTERVAL_MS}) and
 * how a TLS client certificate's subject becomes a principal ({@code KAAS_SSL_PRINCIPAL_MAPPING_RULES}, Apache's
 * {@code ssl.principal.mapping.rules}, default {@code DEFAULT}: the full DN).
 */
public record AuthorizationSettings(boolean simple, Set<KafkaPrincipal> superUsers, long reloadIntervalMs,
                                    SslPrincipalMapping sslPrincipalMapping) {
    public static final long DEFAULT_RELOAD_INTERVAL_MS = 2_000;

    public AuthorizationSettings {
        superUsers = Set.copyOf(superUsers);
    }

    /**
     * {@code User:a;User:b}, Apache's {@code super.users} form, whose ';' lets a principal name hold commas (a
     * certificate's DN); without a ';' the list may also be comma-separated ({@code User:a,User:b}), the form the
     * chart writes.
     */
    static Set<KafkaPrincipal> parseSuperUsers(String value) {
        String separator = value.contains(";") ? ";" : ",";
        return Arrays.stream(value.split(separator)).map(String::trim).filter(s -> !s.isEmpty())
                .map(KafkaPrincipal::parse).collect(Collectors.toUnmodifiableSet());
    }
}
