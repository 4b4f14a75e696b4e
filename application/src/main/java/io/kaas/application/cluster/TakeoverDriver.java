package io.kaas.application.cluster;

import io.kaas.application.topic.TopicService;
import io.kaas.domain.cluster.Assignment;
import io.kaas.domain.cluster.Leader;
import io.kaas.domain.topic.TopicPartition;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes the partition logs open on this broker match what the assignment gives it: relinquishes
 * what moved away (its state persisted for the next leader), then takes over what moved here at the
 * assignment's leader epoch (fence, recover, new segment). Idempotent and re-driven every round, so
 * a takeover that failed (the volume hiccupped, the topic is not known here yet) is retried.
 */
public final class TakeoverDriver {
    private static final Logger LOG = LoggerFactory.getLogger(TakeoverDriver.class);

    private final TopicService topics;
    private final int self;

    public TakeoverDriver(TopicService topics, int self) {
        this.topics = topics;
        this.self = self;
    }

    /** One reconcile pass against {@code assignment}. File I/O: a control thread. */
    public synchronized void reconcile(Assignment assignment) {
        Set<TopicPartition> mine = assignment.ledBy(self);
        for (TopicPartition open : topics.openPartitions()) {
            if (!mine.contains(open)) {
                topics.relinquish(open);
            }
        }
        for (TopicPartition tp : mine) {
            Leader leader = assignment.leaders().get(tp);
            try {
                topics.takeOver(tp, leader.epoch());
            } catch (RuntimeException e) {
                LOG.warn("taking over {} at leader epoch {} failed; the next round retries", tp, leader.epoch(), e);
            }
        }
    }

    /** How many of the partitions {@code assignment} gives this broker are open here: readiness. */
    public int openOf(Assignment assignment) {
        Set<TopicPartition> open = topics.openPartitions();
        return (int) assignment.ledBy(self).stream().filter(open::contains).count();
    }
}
