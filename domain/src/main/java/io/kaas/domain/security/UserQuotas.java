package io.kaas.domain.security;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * A user's quotas with Apache's config names ({@code producer_byte_rate}, {@code consumer_byte_rate},
 * {@code request_percentage}, {@code controller_mutation_rate}); a null field is no quota. Enforced per broker
 * (KIP-13).
 */
public record UserQuotas(Long producerByteRate, Long consumerByteRate, Double requestPercentage,
                         Double controllerMutationRate) {
    public static final UserQuotas NONE = new UserQuotas(null, null, null, null);

    public static final String PRODUCER_BYTE_RATE = "producer_byte_rate";
    public static final String CONSUMER_BYTE_RATE = "consumer_byte_rate";
    public static final String REQUEST_PERCENTAGE = "request_percentage";
    public static final String CONTROLLER_MUTATION_RATE = "controller_mutation_rate";
    /** The keys Apache types LONG: a value for them must be integral. */
    public static final Set<String> LONG_KEYS = Set.of(PRODUCER_BYTE_RATE, CONSUMER_BYTE_RATE);
    /** Every key a user entity takes, as Apache's QuotaConfigs.userConfigs. */
    public static final Set<String> KEYS = Set.of(PRODUCER_BYTE_RATE, CONSUMER_BYTE_RATE, REQUEST_PERCENTAGE,
            CONTROLLER_MUTATION_RATE);

    public boolean isEmpty() {
        return values().isEmpty();
    }

    /** The quotas set, by Apache's name, as the wire carries them (doubles). */
    public Map<String, Double> values() {
        Map<String, Double> values = new LinkedHashMap<>();
        if (producerByteRate != null) {
            values.put(PRODUCER_BYTE_RATE, producerByteRate.doubleValue());
        }
        if (consumerByteRate != null) {
            values.put(CONSUMER_BYTE_RATE, consumerByteRate.doubleValue());
        }
        if (requestPercentage != null) {
            values.put(REQUEST_PERCENTAGE, requestPercentage);
        }
        if (controllerMutationRate != null) {
            values.put(CONTROLLER_MUTATION_RATE, controllerMutationRate);
        }
        return values;
    }

    /**
     * The quotas {@code values} names, by Apache's name; a LONG key's value is rounded to the nearest integer.
     *
     * @throws IllegalArgumentException for a key a user entity does not take
     */
    public static UserQuotas of(Map<String, Double> values) {
        values.keySet().stream().filter(key -> !KEYS.contains(key)).findFirst().ifPresent(key -> {
            throw new IllegalArgumentException("Invalid configuration key " + key);
        });
        Double producer = values.get(PRODUCER_BYTE_RATE);
        Double consumer = values.get(CONSUMER_BYTE_RATE);
        return new UserQuotas(producer == null ? null : Math.round(producer),
                consumer == null ? null : Math.round(consumer), values.get(REQUEST_PERCENTAGE),
                values.get(CONTROLLER_MUTATION_RATE));
    }
}
