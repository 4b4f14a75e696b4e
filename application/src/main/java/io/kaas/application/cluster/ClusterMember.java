package io.kaas.application.cluster;

import io.kaas.application.controller.ClusterController;
import io.kaas.application.topic.TopicService;
import io.kaas.domain.cluster.Assignment;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A broker's part in the cluster, one round per {@link #tick()} (each second and on every
 * ASSIGNMENT_CHANGED push, on one control thread): the election and, on the controller, the
 * recompute; then the topics other brokers changed, the assignment on the volume, the logs open
 * here made to match it, and the coordinators told to follow it (groups and transaction slots
 * routed elsewhere unloaded, those routed here loaded). Every step tolerates the API server or the
 * volume failing for a round. Nothing here is on the Produce/Fetch path.
 */
public final class ClusterMember {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterMember.class);

    private final ClusterController controller;
    private final TopicService topics;
    private final AssignmentFollower follower;
    private final TakeoverDriver takeovers;
    private final Runnable coordinatorsFollow;

    /** @param coordinatorsFollow lets the group and transaction coordinators follow the served assignment */
    public ClusterMember(ClusterController controller, TopicService topics, AssignmentFollower follower,
                         TakeoverDriver takeovers, Runnable coordinatorsFollow) {
        this.controller = controller;
        this.topics = topics;
        this.follower = follower;
        this.takeovers = takeovers;
        this.coordinatorsFollow = coordinatorsFollow;
    }

    /** One round. */
    public synchronized void tick() {
        try {
            topics.refresh();
        } catch (RuntimeException e) {
            LOG.warn("reading the topics on the volume failed; the next round retries", e);
        }
        try {
            controller.tick();
        } catch (RuntimeException e) {
            LOG.warn("the controller round failed; the next round retries", e);
        }
        try {
            follower.refresh();
        } catch (RuntimeException e) {
            LOG.warn("reading assignment.json failed; the next round retries", e);
        }
        if (follower.current().isPresent()) {
            takeovers.reconcile(follower.current().get());
            try {
                coordinatorsFollow.run();
            } catch (RuntimeException e) {
                LOG.warn("moving coordinators to the assignment failed; the next round retries", e);
            }
        }
    }

    /** The assignment served here; empty before the first. */
    public Optional<Assignment> assignment() {
        return follower.current();
    }
}
