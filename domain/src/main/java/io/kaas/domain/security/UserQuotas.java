package io.kaas.domain.security;

/**
 * A user's quotas with Apache's config names ({@code producer_byte_rate}, {@code consumer_byte_rate},
 * {@code request_percentage}); a null field is no quota. Enforced per broker (KIP-13).
 */
public record UserQuotas(Long producerByteRate, Long consumerByteRate, Double requestPercentage) {
    public static final UserQuotas NONE = new UserQuotas(null, null, null);

    public boolean isEmpty() {
        return producerByteRate == null && consumerByteRate == null && requestPercentage == null;
    }
}
