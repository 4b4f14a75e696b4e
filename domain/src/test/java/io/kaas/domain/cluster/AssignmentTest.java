package io.kaas.domain.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.domain.group.CoordinatorRouting;
import io.kaas.domain.topic.TopicPartition;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class AssignmentTest {
    private static final TopicPartition A0 = new TopicPartition("a", 0);
    private static final TopicPartition A1 = new TopicPartition("a", 1);

    @Test
    void answersLeadersAndWhatEachBrokerLeads() {
        Assignment a = assignment(3, 1, alive(0, 1), Map.of(A0, new Leader(0, 3), A1, new Leader(1, 4)), Map.of());

        assertThat(a.leaderOf(A0)).hasValue(new Leader(0, 3));
        assertThat(a.leaderOf(new TopicPartition("b", 0))).isEmpty();
        assertThat(a.ledBy(1)).containsExactly(A1);
    }

    @Test
    void anExplicitGroupEntryWinsOverTheHash() {
        Assignment a = assignment(1, 1, alive(0, 1, 2), Map.of(), Map.of("g", 2));

        assertThat(a.coordinatorOf("g")).hasValue(2);
        assertThat(a.coordinatorOf("h")).isEqualTo(CoordinatorRouting.coordinatorFor("h", List.of(0, 1, 2), Set.of(0, 1, 2)));
    }

    @Test
    void aDeadBrokerMovesOnlyTheGroupsThatHashedToIt() {
        Assignment all = assignment(1, 1, alive(0, 1, 2), Map.of(), Map.of());
        Assignment oneDead = assignment(1, 2, List.of(row(0, BrokerHealth.ALIVE), row(1, BrokerHealth.DEAD), row(2, BrokerHealth.ALIVE)),
                Map.of(), Map.of());

        Map<String, Integer> moved = new HashMap<>();
        IntStream.range(0, 200).mapToObj(i -> "group-" + i).forEach(g -> {
            int before = all.coordinatorOf(g).orElseThrow();
            int after = oneDead.coordinatorOf(g).orElseThrow();
            if (before != after) {
                moved.put(g, before);
            }
        });
        assertThat(moved.values()).as("only groups broker 1 coordinated").containsOnly(1);
        assertThat(moved).hasSizeBetween(40, 95);
    }

    @Test
    void newerMeansALaterControllerOrALaterVersionOfTheSameOne() {
        Assignment e3v5 = assignment(3, 5, alive(0), Map.of(), Map.of());

        assertThat(assignment(4, 1, alive(0), Map.of(), Map.of()).isNewerThan(e3v5)).isTrue();
        assertThat(assignment(3, 6, alive(0), Map.of(), Map.of()).isNewerThan(e3v5)).isTrue();
        assertThat(assignment(3, 5, alive(0), Map.of(), Map.of()).isNewerThan(e3v5)).isFalse();
        assertThat(assignment(2, 9, alive(0), Map.of(), Map.of()).isNewerThan(e3v5)).isFalse();
    }

    static Assignment assignment(long epoch, long version, List<BrokerRow> rows, Map<TopicPartition, Leader> leaders,
                                 Map<String, Integer> groups) {
        TreeMap<TopicPartition, Leader> sorted = new TreeMap<>(Assignment.PARTITION_ORDER);
        sorted.putAll(leaders);
        return new Assignment(epoch, version, rows.get(0).id(), rows, sorted, groups);
    }

    static List<BrokerRow> alive(Integer... ids) {
        return List.of(ids).stream().map(id -> row(id, BrokerHealth.ALIVE)).toList();
    }

    static BrokerRow row(int id, BrokerHealth health) {
        return new BrokerRow(id, health, 0L);
    }
}
