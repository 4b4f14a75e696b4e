package io.kaas.domain.topic;

import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.UUID;

/** Topic ids (KIP-516): random v4 UUIDs, minus the values Apache reserves or avoids. */
public final class TopicIds {
    /** Apache's {@code Uuid.ZERO_UUID}: "no id". */
    public static final UUID ZERO = new UUID(0L, 0L);
    /** Apache's {@code Uuid.METADATA_TOPIC_ID}, reserved for KRaft's metadata log. */
    public static final UUID METADATA_TOPIC_ID = new UUID(0L, 1L);

    private TopicIds() {
    }

    /**
     * Whether a random UUID may name a topic: not reserved, and its URL-safe base64 form does not
     * start with '-' (Apache's rule, so the id is never mistaken for a command-line flag).
     */
    public static boolean isUsable(UUID id) {
        if (id.equals(ZERO) || id.equals(METADATA_TOPIC_ID)) {
            return false;
        }
        int firstSixBits = (int) (id.getMostSignificantBits() >>> 58);
        return firstSixBits != 62;
    }

    /** Kafka's text form of an id: the 16 bytes in URL-safe base64 without padding (22 characters). */
    public static String toBase64(UUID id) {
        ByteBuffer bytes = ByteBuffer.allocate(16).putLong(id.getMostSignificantBits()).putLong(id.getLeastSignificantBits());
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes.array());
    }

    /** Parses {@link #toBase64}'s form. */
    public static UUID fromBase64(String text) {
        byte[] bytes = Base64.getUrlDecoder().decode(text);
        if (bytes.length != 16) {
            throw new IllegalArgumentException("not a 16-byte id: " + text);
        }
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        return new UUID(buffer.getLong(), buffer.getLong());
    }
}
