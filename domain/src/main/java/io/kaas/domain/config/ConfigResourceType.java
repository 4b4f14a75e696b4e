package io.kaas.domain.config;

/** What a configuration belongs to, with Apache Kafka's {@code ConfigResource.Type} ids. */
public enum ConfigResourceType {
    UNKNOWN(0),
    TOPIC(2),
    BROKER(4),
    BROKER_LOGGER(8),
    CLIENT_METRICS(16);

    private final byte id;

    ConfigResourceType(int id) {
        this.id = (byte) id;
    }

    public byte id() {
        return id;
    }

    /** The type with this wire id; unknown ids read as {@link #UNKNOWN}. */
    public static ConfigResourceType forId(byte id) {
        for (ConfigResourceType t : values()) {
            if (t.id == id) {
                return t;
            }
        }
        return UNKNOWN;
    }
}
