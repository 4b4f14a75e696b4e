package io.kaas.domain.config;

/**
 * Where a configuration value comes from, with the ids DescribeConfigs v1+ and CreateTopics v5+
 * send ({@code DescribeConfigsResponse.ConfigSource} in Apache Kafka). kaas produces three of
 * them: a topic override, a broker setting given in the environment, and a default.
 */
public enum ConfigSource {
    UNKNOWN(0),
    /** A topic-level override (Apache's {@code TOPIC_CONFIG}, shown by tools as DYNAMIC_TOPIC_CONFIG). */
    DYNAMIC_TOPIC_CONFIG(1),
    DYNAMIC_BROKER_CONFIG(2),
    DYNAMIC_DEFAULT_BROKER_CONFIG(3),
    /** Set explicitly when the broker started: for kaas, a {@code KAAS_*} environment variable. */
    STATIC_BROKER_CONFIG(4),
    DEFAULT_CONFIG(5),
    DYNAMIC_BROKER_LOGGER_CONFIG(6),
    CLIENT_METRICS_CONFIG(7);

    private final byte id;

    ConfigSource(int id) {
        this.id = (byte) id;
    }

    /** The id on the wire. */
    public byte id() {
        return id;
    }
}
