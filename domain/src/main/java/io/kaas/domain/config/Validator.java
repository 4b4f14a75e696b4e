package io.kaas.domain.config;

import io.kaas.domain.error.KafkaException;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A check on a parsed configuration value, as Apache Kafka's {@code ConfigDef.Validator}s make
 * them, with the same wording when it fails.
 */
public interface Validator {

    /** Throws INVALID_CONFIG ({@link KafkaException}) when {@code value}, parsed, is not acceptable for {@code name}. */
    void ensureValid(String name, Object value);

    /** The valid values in words, for documentation, e.g. {@code [1,...]}. */
    String describe();

    /** A number no smaller than {@code min}. */
    static Validator atLeast(long min) {
        return new Validator() {
            @Override
            public void ensureValid(String name, Object value) {
                if (((Number) value).doubleValue() < min) {
                    throw ConfigValues.invalid(name, value, "Value must be at least " + min);
                }
            }

            @Override
            public String describe() {
                return "[" + min + ",...]";
            }
        };
    }

    /** A number in {@code [min, max]}. */
    static Validator between(long min, long max) {
        return new Validator() {
            @Override
            public void ensureValid(String name, Object value) {
                double n = ((Number) value).doubleValue();
                if (n < min) {
                    throw ConfigValues.invalid(name, value, "Value must be at least " + min);
                }
                if (n > max) {
                    throw ConfigValues.invalid(name, value, "Value must be no more than " + max);
                }
            }

            @Override
            public String describe() {
                return "[" + min + ",...," + max + "]";
            }
        };
    }

    /** One of the given strings, case-sensitive. */
    static Validator oneOf(String... valid) {
        List<String> allowed = List.of(valid);
        return new Validator() {
            @Override
            public void ensureValid(String name, Object value) {
                if (!allowed.contains((String) value)) {
                    throw ConfigValues.invalid(name, value, "String must be one of: " + String.join(", ", allowed));
                }
            }

            @Override
            public String describe() {
                return "[" + String.join(", ", allowed) + "]";
            }
        };
    }

    /** A list whose every item is one of the given strings. */
    static Validator listOf(String... valid) {
        Validator item = oneOf(valid);
        return new Validator() {
            @Override
            public void ensureValid(String name, Object value) {
                for (Object s : (List<?>) value) {
                    item.ensureValid(name, s);
                }
            }

            @Override
            public String describe() {
                return item.describe();
            }
        };
    }

    /** Apache's throttled-replica list: {@code *}, or items {@code partitionId:brokerId}. */
    static Validator throttledReplicas() {
        Pattern replica = Pattern.compile("([0-9]+:[0-9]+)?");
        return new Validator() {
            @Override
            public void ensureValid(String name, Object value) {
                List<String> items = ((List<?>) value).stream().map(o -> o.toString().trim()).toList();
                if (!(items.stream().allMatch(s -> replica.matcher(s).matches()) || String.join("", items).equals("*"))) {
                    throw ConfigValues.invalid(name, value, name + " must be the literal '*' or a list of replicas in the "
                            + "following format: [partitionId]:[brokerId],[partitionId]:[brokerId],...");
                }
            }

            @Override
            public String describe() {
                return "[partitionId]:[brokerId],[partitionId]:[brokerId],...";
            }
        };
    }

    /**
     * A Kafka release or inter-broker protocol version as Apache's {@code MetadataVersion} reads it:
     * {@code 2.8}, {@code 3.0-IV1}, {@code 0.10.2}, or longer forms such as {@code 3.7.2} whose first
     * two (three for 0.x) parts name a known release.
     */
    static Validator kafkaVersion() {
        return new Validator() {
            @Override
            public void ensureValid(String name, Object value) {
                if (!KafkaVersions.isKnown(value.toString())) {
                    throw ConfigValues.invalid(name, value, "Version " + value + " is not a valid version");
                }
            }

            @Override
            public String describe() {
                return "[0.8.0, 0.8.1, ..., 3.7-IV4]";
            }
        };
    }
}
