package io.kaas.application.log;

import io.kaas.domain.topic.TopicPartition;

/** Told after every append that moved a partition's high watermark; wakes parked fetches. */
@FunctionalInterface
public interface AppendListener {
    void onAppend(TopicPartition partition);
}
