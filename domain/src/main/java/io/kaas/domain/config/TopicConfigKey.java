package io.kaas.domain.config;

import java.util.Objects;
import java.util.Optional;

/**
 * One topic-level configuration key of Apache Kafka 3.7, as kaas knows it.
 *
 * @param name           the key, e.g. {@code retention.ms}
 * @param type           how its value is parsed
 * @param defaultValue   Apache's default, in canonical text; a broker may supply its own through {@code brokerDefault}
 * @param validator      the check on a parsed value, or null when any value of the type is valid
 * @param brokerDefault  the broker setting that supplies the default (Apache's first topic-config synonym,
 *                       e.g. {@code log.retention.ms}), or null when there is none
 * @param support        whether kaas applies it
 * @param documentation  what it means, and what kaas does with it
 */
public record TopicConfigKey(String name, ConfigType type, String defaultValue, Validator validator,
                             String brokerDefault, Support support, String documentation) {

    /** Whether kaas acts on a key. Every key is accepted, validated, stored and reported either way. */
    public enum Support {
        /** kaas applies it. */
        ENFORCED,
        /** Part of its meaning applies; the documentation says which part. */
        PARTIAL,
        /** Accepted and reported, without effect in kaas; the documentation says why. */
        INERT
    }

    public TopicConfigKey {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(defaultValue, "defaultValue");
        Objects.requireNonNull(support, "support");
        Objects.requireNonNull(documentation, "documentation");
    }

    /** The broker setting supplying the default, if any. */
    public Optional<String> brokerDefaultKey() {
        return Optional.ofNullable(brokerDefault);
    }

    /** Parses and checks {@code raw}; INVALID_CONFIG with Apache's message when it is not acceptable. */
    public Object parse(String raw) {
        Object value = ConfigValues.parse(name, type, raw);
        if (validator != null) {
            validator.ensureValid(name, value);
        }
        return value;
    }

    /** The valid values in words, for documentation. */
    public String validValues() {
        return validator == null ? "" : validator.describe();
    }
}
