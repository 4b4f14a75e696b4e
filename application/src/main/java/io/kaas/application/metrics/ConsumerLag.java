package io.kaas.application.metrics;

import io.kaas.application.group.GroupCoordinatorService;
import io.kaas.application.log.PartitionLog;
import io.kaas.application.topic.TopicService;
import io.kaas.domain.topic.TopicPartition;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Consumer-group lag as Kafka's exporters compute it: a partition's high watermark minus the
 * group's committed offset, for each committed partition this broker both coordinates the group of
 * and leads. Computed when metrics are collected, from lock-free log offsets; never on the hot path.
 */
public final class ConsumerLag {
    private final GroupCoordinatorService groups;
    private final TopicService topics;

    public ConsumerLag(GroupCoordinatorService groups, TopicService topics) {
        this.groups = groups;
        this.topics = topics;
    }

    /** {@code lag} is at least 0: an offset committed past the high watermark (truncation) counts as caught up. */
    public record PartitionLag(String group, TopicPartition partition, long lag) {
    }

    public List<PartitionLag> current() {
        List<PartitionLag> lags = new ArrayList<>();
        groups.committedOffsets().forEach((group, committed) -> {
            for (Map.Entry<TopicPartition, Long> c : committed.entrySet()) {
                Optional<PartitionLog> log = topics.log(c.getKey());
                if (log.isPresent()) {
                    long lag = log.get().offsets().highWatermark() - c.getValue();
                    lags.add(new PartitionLag(group, c.getKey(), Math.max(lag, 0)));
                }
            }
        });
        return lags;
    }
}
