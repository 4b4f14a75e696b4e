package io.kaas.application.quota;

import io.kaas.application.authentication.CredentialCache;
import io.kaas.domain.security.Credentials;
import java.util.function.Supplier;

/**
 * The quotas the users of {@code credentials.json} carry, as the request path reads them: derived again only when
 * the credential cache swapped its snapshot (a reload, an AlterClientQuotas), so a read is two volatile reads and
 * a comparison. Two threads seeing a new snapshot at once both derive it; either result is the same.
 */
public final class ConfiguredQuotas implements Supplier<ClientQuotaLimits> {
    private final Supplier<Credentials> credentials;
    private volatile Derived derived = new Derived(null, ClientQuotaLimits.NONE);

    public ConfiguredQuotas(Supplier<Credentials> credentials) {
        this.credentials = credentials;
    }

    public static ConfiguredQuotas of(CredentialCache cache) {
        return new ConfiguredQuotas(cache::current);
    }

    @Override
    public ClientQuotaLimits get() {
        Credentials current = credentials.get();
        Derived last = derived;
        if (last.source != current) {
            last = new Derived(current, ClientQuotaLimits.of(current));
            derived = last;
        }
        return last.limits;
    }

    private record Derived(Credentials source, ClientQuotaLimits limits) {
    }
}
