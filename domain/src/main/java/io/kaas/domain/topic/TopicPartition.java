package io.kaas.domain.topic;

/** A topic name and a partition index. */
public record TopicPartition(String topic, int partition) {
    @Override
    public String toString() {
        return topic + "-" + partition;
    }
}
