package io.kaas.domain.config;

/**
 * The data type of a configuration value, with the ids DescribeConfigs v3+ sends for each
 * ({@code DescribeConfigsResponse.ConfigType} in Apache Kafka).
 */
public enum ConfigType {
    UNKNOWN(0),
    BOOLEAN(1),
    STRING(2),
    INT(3),
    SHORT(4),
    LONG(5),
    DOUBLE(6),
    LIST(7),
    CLASS(8),
    PASSWORD(9);

    private final byte id;

    ConfigType(int id) {
        this.id = (byte) id;
    }

    /** The id on the wire. */
    public byte id() {
        return id;
    }
}
