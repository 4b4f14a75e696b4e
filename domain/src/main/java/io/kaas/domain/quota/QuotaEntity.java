package io.kaas.domain.quota;

import java.util.Objects;

/**
 * What a client quota is configured for (KIP-55): a user, a client id, or both; either part may be its type's
 * default entity ({@code <default>}), which applies to every user or client id without a quota of its own.
 *
 * @param user     the user part: null when the entity has none
 * @param clientId the client-id part: null when the entity has none
 */
public record QuotaEntity(Name user, Name clientId) {

    /** One part's name; {@link #DEFAULT} is the default entity (a null name on the wire). */
    public record Name(String value) {
        public static final Name DEFAULT = new Name(null);

        public static Name of(String value) {
            return new Name(Objects.requireNonNull(value, "value"));
        }

        /** The named entity for a non-null {@code value}, the default entity for null (the wire's encoding). */
        public static Name orDefault(String value) {
            return value == null ? DEFAULT : of(value);
        }

        public boolean isDefault() {
            return value == null;
        }

        @Override
        public String toString() {
            return isDefault() ? "<default>" : value;
        }
    }

    public QuotaEntity {
        if (user == null && clientId == null) {
            throw new IllegalArgumentException("a quota entity names a user, a client id or both");
        }
    }

    public static QuotaEntity user(Name user) {
        return new QuotaEntity(user, null);
    }

    public static QuotaEntity clientId(Name clientId) {
        return new QuotaEntity(null, clientId);
    }

    public static QuotaEntity userAndClientId(Name user, Name clientId) {
        return new QuotaEntity(user, clientId);
    }
}
