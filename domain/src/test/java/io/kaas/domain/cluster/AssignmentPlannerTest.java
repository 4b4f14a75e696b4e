package io.kaas.domain.cluster;

import static io.kaas.domain.cluster.AssignmentTest.alive;
import static io.kaas.domain.cluster.AssignmentTest.assignment;
import static io.kaas.domain.cluster.AssignmentTest.row;
import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.domain.topic.TopicPartition;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class AssignmentPlannerTest {
    private static final SortedMap<String, Integer> TOPICS = new TreeMap<>(Map.of("a", 4));

    @Test
    void theFirstAssignmentPlacesEveryPartitionAtVersionOne() {
        Assignment first = AssignmentPlanner.next(null, 3, 0, TOPICS, decision(alive(0, 1)));

        assertThat(first.controllerEpoch()).isEqualTo(3);
        assertThat(first.version()).isEqualTo(1);
        assertThat(first.controllerId()).isZero();
        assertThat(first.leaders()).hasSize(4);
        assertThat(first.ledBy(0)).hasSize(2);
    }

    @Test
    void aLaterOneStartsFromThePreviousLeadersAndCountsOn() {
        Assignment first = AssignmentPlanner.next(null, 3, 0, TOPICS, decision(alive(0, 1)));

        Assignment second = AssignmentPlanner.next(first, 4, 1, TOPICS, decision(alive(0, 1)));

        assertThat(second.version()).isEqualTo(2);
        assertThat(second.leaders()).isEqualTo(first.leaders());
        assertThat(AssignmentPlanner.changes(first, second)).as("a new controller").isTrue();
    }

    @Test
    void aPartitionKeepsItsLeaderEpochWhileItStaysAndGetsTheNextWhenItMoves() {
        Assignment first = AssignmentPlanner.next(null, 3, 0, TOPICS, decision(alive(0, 1)));
        assertThat(first.leaders().values()).extracting(Leader::epoch).containsOnly(3);

        Assignment second = AssignmentPlanner.next(first, 3, 0, TOPICS, decision(List.of(row(0, BrokerHealth.ALIVE),
                row(1, BrokerHealth.DEAD))));

        first.leaders().forEach((tp, leader) -> assertThat(second.leaderOf(tp)).hasValue(
                leader.broker() == 0 ? leader : new Leader(0, leader.epoch() + 1)));
    }

    @Test
    void groupEntriesStayWhileTheirBrokerIsRegisteredDeadOrNot() {
        Assignment previous = assignment(1, 1, alive(0, 1, 2), Map.of(), Map.of("g1", 1, "g2", 2));
        List<BrokerRow> oneDeadOneGone = List.of(row(0, BrokerHealth.ALIVE), row(1, BrokerHealth.DEAD));

        Assignment next = AssignmentPlanner.next(previous, 1, 0, TOPICS, decision(oneDeadOneGone));

        assertThat(next.consumerGroups()).containsExactly(Map.entry("g1", 1));
    }

    @Test
    void onlyTheTimeABrokerWasLastSeenIsNoChange() {
        Assignment previous = AssignmentPlanner.next(null, 1, 0, TOPICS, decision(alive(0, 1)));
        List<BrokerRow> later = List.of(new BrokerRow(0, BrokerHealth.ALIVE, 9_999), new BrokerRow(1, BrokerHealth.ALIVE, 9_999));

        Assignment same = AssignmentPlanner.next(previous, 1, 0, TOPICS, decision(later));
        Assignment oneDraining = AssignmentPlanner.next(previous, 1, 0, TOPICS,
                decision(List.of(row(0, BrokerHealth.ALIVE), row(1, BrokerHealth.DRAINING)), 0));

        assertThat(AssignmentPlanner.changes(previous, same)).isFalse();
        assertThat(AssignmentPlanner.changes(previous, oneDraining)).isTrue();
        assertThat(oneDraining.ledBy(1)).isEmpty();
        assertThat(oneDraining.leaderOf(new TopicPartition("a", 0)).map(Leader::broker)).hasValue(0);
    }

    private static AliveSet.Decision decision(List<BrokerRow> rows) {
        return new AliveSet.Decision(rows, new TreeSet<>(rows.stream().filter(BrokerRow::alive).map(BrokerRow::id).toList()));
    }

    private static AliveSet.Decision decision(List<BrokerRow> rows, Integer... eligible) {
        return new AliveSet.Decision(rows, new TreeSet<>(List.of(eligible)));
    }
}
