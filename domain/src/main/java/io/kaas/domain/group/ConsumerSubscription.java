package io.kaas.domain.group;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;

/**
 * Reads the topics out of a consumer's subscription metadata (protocol type {@code consumer}), so
 * the coordinator knows which topics a group consumes (OffsetDelete refuses those). Only the
 * version-0 prefix is read (a version, then the topic names), which every later version keeps.
 */
public final class ConsumerSubscription {
    /** The protocol type of Kafka consumer groups. */
    public static final String PROTOCOL_TYPE = "consumer";

    private ConsumerSubscription() {
    }

    /** The subscribed topics, or empty if the bytes are not a consumer subscription. */
    public static Optional<Set<String>> topics(byte[] metadata) {
        try {
            ByteBuffer buffer = ByteBuffer.wrap(metadata);
            short version = buffer.getShort();
            int count = buffer.getInt();
            if (version < 0 || count < 0) {
                return Optional.empty();
            }
            Set<String> topics = new LinkedHashSet<>();
            for (int i = 0; i < count; i++) {
                short length = buffer.getShort();
                if (length < 0) {
                    return Optional.empty();
                }
                byte[] name = new byte[length];
                buffer.get(name);
                topics.add(new String(name, StandardCharsets.UTF_8));
            }
            return Optional.of(topics);
        } catch (BufferUnderflowException e) {
            return Optional.empty();
        }
    }
}
