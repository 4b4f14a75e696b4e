package io.kaas.domain.fetch;

import java.util.UUID;

/**
 * A partition as a session names it: by topic id in sessions of Fetch v13+ ({@code topic} null), by topic
 * name before ({@code topicId} null). A v13+ session keeps a partition whose id names no topic (yet).
 */
public record SessionKey(UUID topicId, String topic, int partition) {
    public static SessionKey byId(UUID topicId, int partition) {
        return new SessionKey(topicId, null, partition);
    }

    public static SessionKey byName(String topic, int partition) {
        return new SessionKey(null, topic, partition);
    }
}
