package io.kaas.application.controller;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.application.cluster.AssignmentFollower;
import io.kaas.application.fake.ManualClock;
import io.kaas.application.memory.InMemoryAssignmentStore;
import io.kaas.application.memory.InMemoryBrokerRegistry;
import io.kaas.application.memory.InMemoryLeaseStore;
import io.kaas.application.port.out.HeartbeatTransport.Beat;
import io.kaas.domain.cluster.Assignment;
import io.kaas.domain.cluster.AssignmentFence;
import io.kaas.domain.cluster.BrokerHealth;
import io.kaas.domain.cluster.BrokerRow;
import io.kaas.domain.cluster.Leader;
import io.kaas.domain.topic.TopicPartition;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** Three brokers sharing one Lease and one assignment file, each running the election, the controller and the follower. */
class ClusterControllerTest {
    private static final int LEASE_S = 15;
    private static final long BEAT_TIMEOUT_MS = 3_000;

    private final ManualClock clock = new ManualClock();
    private final InMemoryLeaseStore leaseStore = new InMemoryLeaseStore();
    private final InMemoryAssignmentStore assignments = new InMemoryAssignmentStore();
    private final InMemoryBrokerRegistry registry = InMemoryBrokerRegistry.of(0, 1, 2);
    private final SortedMap<String, Integer> topics = new TreeMap<>(Map.of("orders", 6, "payments", 3));
    private final List<Assignment> pushed = new ArrayList<>();
    private final List<Broker> brokers = List.of(new Broker(0), new Broker(1), new Broker(2));

    private final class Broker {
        final int id;
        final ControllerLease lease;
        final ClusterController controller;
        final AssignmentFollower follower;
        final AtomicBoolean draining = new AtomicBoolean();

        Broker(int id) {
            this.id = id;
            lease = new ControllerLease(leaseStore, clock, "kaas-" + id, LEASE_S);
            controller = new ClusterController(lease, assignments, registry, () -> topics, clock, id, BEAT_TIMEOUT_MS,
                    () -> true, draining::get, pushed::add);
            follower = new AssignmentFollower(assignments, id, lease::highestEpoch);
        }

        /** One control round: election (and recompute when controller), then a poll of the file. */
        void round() {
            controller.tick();
            follower.refresh();
        }

        Assignment serving() {
            return follower.current().orElseThrow();
        }
    }

    /** Every live broker beats to whoever controls, each ticks its round, and the clock moves a second. */
    private void second(List<Broker> live) {
        Broker controller = brokers.stream().filter(b -> b.lease.holds()).findFirst().orElse(null);
        for (Broker b : live) {
            if (controller != null && b != controller) {
                controller.controller.onBeat(new Beat(b.id, true, b.draining.get()));
            }
        }
        live.forEach(Broker::round);
        clock.advance(1_000);
    }

    private void seconds(int n, List<Broker> live) {
        for (int i = 0; i < n; i++) {
            second(live);
        }
    }

    @Test
    void theControllerIsFollowedWhileEveryBrokerItCountsAliveBeatsIt() {
        seconds(5, brokers);
        Broker controller = brokers.stream().filter(b -> b.lease.holds()).findFirst().orElseThrow();
        Broker other = brokers.stream().filter(b -> b != controller).findFirst().orElseThrow();
        assertThat(controller.controller.followedWithin(BEAT_TIMEOUT_MS)).isTrue();
        assertThat(other.controller.followedWithin(BEAT_TIMEOUT_MS)).as("it wrote no assignment").isFalse();

        // One broker stops beating (it found another controller, or died): the controller is no longer
        // sure nobody else counts it, until it has written that broker dead itself.
        List<Broker> rest = brokers.stream().filter(b -> b != other).toList();
        for (int i = 0; i < 3; i++) {
            controller.controller.onBeat(new Beat(rest.stream().filter(b -> b != controller).findFirst().orElseThrow().id,
                    true, false));
            clock.advance(1_000);
        }
        controller.controller.tick();
        assertThat(assignments.read().orElseThrow().alive()).doesNotContain(other.id);
        assertThat(controller.controller.followedWithin(BEAT_TIMEOUT_MS)).isFalse();
        controller.controller.tick(); // the next round reads the assignment without the dead broker
        assertThat(controller.controller.followedWithin(BEAT_TIMEOUT_MS)).isTrue();
    }

    @Test
    void theFirstControllerSpreadsThePartitionsOverTheReadyBrokersBeforeAnyHeartbeat() {
        brokers.get(0).round();

        Assignment first = assignments.read().orElseThrow();
        assertThat(first.controllerId()).isZero();
        assertThat(first.controllerEpoch()).isOne();
        assertThat(first.leaders()).hasSize(9);
        for (Broker b : brokers) {
            assertThat(first.ledBy(b.id)).as("broker %d", b.id).hasSize(3);
        }
        assertThat(pushed).containsExactly(first);
        brokers.forEach(Broker::round);
        brokers.forEach(b -> assertThat(b.serving()).isEqualTo(first));
    }

    @Test
    void aSteadyClusterWritesNothingNew() {
        seconds(3, brokers);
        int written = assignments.written().size();

        seconds(20, brokers);

        assertThat(assignments.written()).hasSize(written);
    }

    @Test
    void aSilentBrokersPartitionsMoveAndNothingElseDoes() {
        seconds(3, brokers);
        Assignment before = assignments.read().orElseThrow();

        seconds(5, brokers.subList(0, 2)); // broker 2 stops beating (kill -9)

        Assignment after = brokers.get(0).serving();
        assertThat(after.ledBy(2)).isEmpty();
        assertThat(after.brokers()).contains(new BrokerRow(2, BrokerHealth.DEAD, before.brokers().get(2).lastSeenMs()));
        before.leaders().forEach((tp, leader) -> {
            Leader now = after.leaderOf(tp).orElseThrow();
            if (leader.broker() != 2) {
                assertThat(now).as(tp.toString()).isEqualTo(leader);
            } else {
                assertThat(now.epoch()).as("a moved partition's epoch rises").isEqualTo(leader.epoch() + 1);
            }
        });
        assertThat(after.registered()).as("the dead broker stays in the divisor").containsExactly(0, 1, 2);
    }

    @Test
    void aDrainingBrokerIsGivenNothingAtTheNextRound() {
        seconds(3, brokers);
        brokers.get(1).draining.set(true);

        seconds(2, brokers);

        Assignment after = brokers.get(1).serving();
        assertThat(after.ledBy(1)).isEmpty();
        assertThat(after.brokers()).extracting(BrokerRow::health)
                .containsExactly(BrokerHealth.ALIVE, BrokerHealth.DRAINING, BrokerHealth.ALIVE);
    }

    @Test
    void whenTheControllerDiesAnotherTakesTheLeaseAtAHigherEpochAndTheOldOneCannotRollBack() {
        seconds(3, brokers);
        Assignment underOld = assignments.read().orElseThrow();
        List<Broker> survivors = brokers.subList(1, 3);

        seconds(LEASE_S + 5, survivors); // broker 0 is paused (SIGSTOP): no beats, no rounds

        Assignment underNew = brokers.get(1).serving();
        assertThat(underNew.controllerEpoch()).isEqualTo(2);
        assertThat(underNew.controllerId()).isIn(1, 2);
        assertThat(underNew.ledBy(0)).isEmpty();

        // Resumed, the old controller's round sees the Lease moved on and writes nothing...
        int written = assignments.written().size();
        brokers.get(0).round();
        assertThat(assignments.written()).hasSize(written);
        // ...and an assignment it had in flight from before is refused by every broker that saw the new epoch.
        assignments.write(new Assignment(underOld.controllerEpoch(), underNew.version() + 1, 0, underOld.brokers(),
                underOld.leaders(), Map.of()));
        for (Broker b : brokers) {
            assertThat(b.follower.refresh()).as("broker %d", b.id).isEqualTo(AssignmentFence.Verdict.STALE_CONTROLLER);
            assertThat(b.serving()).isEqualTo(underNew);
        }
    }

    @Test
    void withTheApiServerGoneLeadershipStaysAsItIsAndResumesChangingWhenItReturns() {
        seconds(3, brokers);
        Assignment before = assignments.read().orElseThrow();
        leaseStore.unreachable(true);

        seconds(30, brokers.subList(0, 2)); // broker 2 dies meanwhile: nobody may move its partitions

        assertThat(assignments.read()).hasValue(before);
        brokers.forEach(b -> assertThat(b.serving()).isEqualTo(before));

        leaseStore.unreachable(false);
        seconds(3, brokers.subList(0, 2));
        assertThat(brokers.get(0).serving().ledBy(2)).isEmpty();
    }

    @Test
    void aNewTopicIsPlacedWithinARoundWithoutMovingTheOthers() {
        seconds(3, brokers);
        Assignment before = assignments.read().orElseThrow();

        topics.put("audit", 3);
        seconds(1, brokers);

        Assignment after = brokers.get(2).serving();
        before.leaders().forEach((tp, leader) -> assertThat(after.leaderOf(tp)).hasValue(leader));
        for (int p = 0; p < 3; p++) {
            assertThat(after.leaderOf(new TopicPartition("audit", p))).isPresent();
        }
    }
}
