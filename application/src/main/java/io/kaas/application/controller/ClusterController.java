package io.kaas.application.controller;

import io.kaas.application.port.out.AssignmentStore;
import io.kaas.application.port.out.BrokerRegistry;
import io.kaas.application.port.out.BrokerRegistry.RegisteredBroker;
import io.kaas.application.port.out.Clock;
import io.kaas.application.port.out.HeartbeatTransport.Beat;
import io.kaas.application.port.out.LeaseStore;
import io.kaas.domain.cluster.AliveSet;
import io.kaas.domain.cluster.Assignment;
import io.kaas.domain.cluster.AssignmentPlanner;
import io.kaas.domain.cluster.Heartbeat;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One control round per {@link #tick()} (every second, on a control thread): the election, and,
 * while this broker holds the Lease, the recompute: the alive set from heartbeats, the next
 * assignment from the last one, written to the volume and pushed to the brokers when it changes
 * anything. Recomputing every round covers every trigger (a Lease win, a topic change, a broker
 * joining, leaving or draining) within a second, without a trigger to miss.
 *
 * <p>A deposed controller cannot roll the cluster back: it writes only while its Lease is fresh,
 * never over an assignment of a newer epoch, and brokers refuse anything older than the newest
 * epoch they saw on the Lease.
 */
public final class ClusterController {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterController.class);

    private final ControllerLease lease;
    private final AssignmentStore assignments;
    private final BrokerRegistry registry;
    private final Supplier<SortedMap<String, Integer>> topics;
    private final Clock clock;
    private final int self;
    private final long heartbeatTimeoutMs;
    private final BooleanSupplier selfHealthy;
    private final BooleanSupplier selfDraining;
    private final Consumer<Assignment> published;
    private final Map<Integer, Heartbeat> beats = new ConcurrentHashMap<>();

    /** When this broker last won the Lease: Kubernetes readiness stands in for heartbeats for a while after. */
    private long wonAtMs = Long.MIN_VALUE;
    private boolean apiServerDown;
    /** Computed each round, see {@link #followedWithin}. */
    private volatile long oldestFollowerBeatMs = Long.MIN_VALUE;

    /**
     * @param topics             every topic and its partition count, as the catalog has them now
     * @param heartbeatTimeoutMs how long a broker stays connected without a beat
     * @param published          told of each assignment written (pushes ASSIGNMENT_CHANGED)
     */
    public ClusterController(ControllerLease lease, AssignmentStore assignments, BrokerRegistry registry,
                             Supplier<SortedMap<String, Integer>> topics, Clock clock, int self, long heartbeatTimeoutMs,
                             BooleanSupplier selfHealthy, BooleanSupplier selfDraining, Consumer<Assignment> published) {
        this.lease = lease;
        this.assignments = assignments;
        this.registry = registry;
        this.topics = topics;
        this.clock = clock;
        this.self = self;
        this.heartbeatTimeoutMs = heartbeatTimeoutMs;
        this.selfHealthy = selfHealthy;
        this.selfDraining = selfDraining;
        this.published = published;
    }

    /** A broker's beat, from the heartbeat transport's threads. */
    public void onBeat(Beat beat) {
        beats.put(beat.brokerId(), new Heartbeat(beat.brokerId(), beat.healthy(), beat.draining(), clock.nowMs()));
    }

    /**
     * Whether this broker wrote the assignment in force and every other broker it counts alive beat
     * here within {@code withinMs}: they all still take it for their controller, so none has found
     * another to count it dead - which holds even while the API server is gone and the Lease cannot
     * be renewed. A broker that finds a new controller stops beating here. Cheap: the Produce path asks.
     */
    public boolean followedWithin(long withinMs) {
        long oldest = oldestFollowerBeatMs;
        return oldest != Long.MIN_VALUE && clock.nowMs() - oldest < withinMs;
    }

    /** One round: the election, then the recompute while holding the Lease. */
    public void tick() {
        Assignment current = assignments.read().orElse(null);
        if (current != null) {
            lease.noteEpoch(current.controllerEpoch());
        }
        oldestFollowerBeatMs = oldestFollowerBeat(current);
        ControllerLease.View view;
        try {
            view = selfDraining.getAsBoolean() ? lease.stepAside() : lease.tick();
            if (apiServerDown) {
                LOG.info("the API server answers again; controller lease held by '{}' at epoch {}", view.holder(), view.epoch());
                apiServerDown = false;
            }
        } catch (LeaseStore.LeaseStoreException e) {
            if (!apiServerDown) {
                LOG.warn("controller lease round failed (API server unreachable?); leadership stops changing until it answers",
                        e);
                apiServerDown = true;
            }
            return;
        }
        if (!view.heldBySelf()) {
            wonAtMs = Long.MIN_VALUE;
            return;
        }
        long now = clock.nowMs();
        if (wonAtMs == Long.MIN_VALUE) {
            wonAtMs = now;
        }
        if (current != null && current.controllerEpoch() > view.epoch()) {
            LOG.warn("assignment.json is of controller epoch {} above this controller's {}: not writing",
                    current.controllerEpoch(), view.epoch());
            return;
        }
        AliveSet.Decision alive = AliveSet.decide(registry.brokers().stream().map(RegisteredBroker::id).toList(),
                heartbeats(now), self, current == null ? List.of() : current.brokers(), now, heartbeatTimeoutMs);
        Assignment next = AssignmentPlanner.next(current, view.epoch(), self, topics.get(), alive);
        if (!AssignmentPlanner.changes(current, next) || !lease.holds()) {
            return;
        }
        assignments.write(next);
        LOG.info("assignment {} written at controller epoch {}: {} partitions over brokers {}", next.version(),
                next.controllerEpoch(), next.leaders().size(), alive.eligible());
        published.accept(next);
    }

    /**
     * The beats, this broker's own tick, and, in the first heartbeat timeout after a Lease win, a
     * stand-in beat for every ready registered broker that has not dialled in yet (a new controller
     * must not unassign the brokers that simply have not found it).
     */
    private Map<Integer, Heartbeat> heartbeats(long now) {
        Map<Integer, Heartbeat> all = new HashMap<>(beats);
        all.put(self, new Heartbeat(self, selfHealthy.getAsBoolean(), selfDraining.getAsBoolean(), now));
        if (now - wonAtMs < heartbeatTimeoutMs) {
            for (RegisteredBroker broker : registry.brokers()) {
                if (broker.ready()) {
                    all.putIfAbsent(broker.id(), new Heartbeat(broker.id(), true, false, now));
                }
            }
        }
        return all;
    }

    private long oldestFollowerBeat(Assignment current) {
        if (current == null || current.controllerId() != self) {
            return Long.MIN_VALUE;
        }
        long oldest = Long.MAX_VALUE;
        for (int broker : current.alive()) {
            if (broker != self) {
                Heartbeat beat = beats.get(broker);
                oldest = Math.min(oldest, beat == null ? Long.MIN_VALUE : beat.receivedMs());
            }
        }
        return oldest == Long.MAX_VALUE ? clock.nowMs() : oldest; // alone: nobody else could count it dead
    }

    /** A draining controller hands the Lease over, keeping the epoch. */
    public void stepDown() {
        lease.release();
    }
}
