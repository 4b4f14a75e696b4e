package io.kaas.domain.security;

import java.util.Objects;

/**
 * Who a connection speaks for, in Kafka's {@code Type:name} form ({@code User:alice}). ACLs, quotas
 * and credentials all key on it; a connection that has not authenticated is {@link #ANONYMOUS}, as in
 * Apache.
 */
public record KafkaPrincipal(String type, String name) {
    public static final String USER_TYPE = "User";
    public static final KafkaPrincipal ANONYMOUS = new KafkaPrincipal(USER_TYPE, "ANONYMOUS");

    public KafkaPrincipal {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(name, "name");
    }

    public static KafkaPrincipal user(String name) {
        return new KafkaPrincipal(USER_TYPE, name);
    }

    /** Parses {@code Type:name}; the name may itself contain colons. */
    public static KafkaPrincipal parse(String text) {
        int colon = text.indexOf(':');
        if (colon <= 0) {
            throw new IllegalArgumentException("a principal is Type:name, got '" + text + "'");
        }
        return new KafkaPrincipal(text.substring(0, colon), text.substring(colon + 1));
    }

    @Override
    public String toString() {
        return type + ":" + name;
    }
}
