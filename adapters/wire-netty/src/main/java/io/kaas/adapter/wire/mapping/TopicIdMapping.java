package io.kaas.adapter.wire.mapping;

import java.util.UUID;
import org.apache.kafka.common.Uuid;

/** Between {@link UUID} topic ids and kafka-clients' {@link Uuid}. */
public final class TopicIdMapping {
    private TopicIdMapping() {
    }

    public static Uuid toWire(UUID id) {
        return id == null ? Uuid.ZERO_UUID : new Uuid(id.getMostSignificantBits(), id.getLeastSignificantBits());
    }

    public static UUID fromWire(Uuid id) {
        return new UUID(id.getMostSignificantBits(), id.getLeastSignificantBits());
    }
}
