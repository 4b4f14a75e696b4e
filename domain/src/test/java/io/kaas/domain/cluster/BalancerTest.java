package io.kaas.domain.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.domain.topic.TopicPartition;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class BalancerTest {
    private static final int SEEDS = 500;

    @Test
    void aNewClusterSpreadsEveryTopicRoundTheBrokers() {
        SortedMap<TopicPartition, Integer> leaders = Balancer.balance(Map.of(), topics("a", 3, "b", 3, "c", 1), brokers(0, 1, 2));

        assertThat(leaders).hasSize(7);
        assertThat(perBroker(leaders, "a").values()).containsOnly(1);
        assertThat(perBroker(leaders, "b").values()).containsOnly(1);
        assertThat(loads(leaders, brokers(0, 1, 2)).values()).containsExactlyInAnyOrder(2, 2, 3);
    }

    @Test
    void nothingIsPlacedWithoutAnAliveBroker() {
        assertThat(Balancer.balance(Map.of(), topics("a", 3), brokers())).isEmpty();
    }

    @Test
    void aDeletedTopicsPartitionsDisappearAndNothingElseMoves() {
        SortedMap<TopicPartition, Integer> before = Balancer.balance(Map.of(), topics("a", 4, "b", 4), brokers(0, 1));

        SortedMap<TopicPartition, Integer> after = Balancer.balance(before, topics("a", 4), brokers(0, 1));

        assertThat(after.keySet()).allMatch(tp -> tp.topic().equals("a"));
        after.forEach((tp, leader) -> assertThat(before.get(tp)).isEqualTo(leader));
    }

    @Test
    void aNewTopicDoesNotMoveTheOthers() {
        SortedMap<TopicPartition, Integer> before = Balancer.balance(Map.of(), topics("a", 6, "b", 5), brokers(0, 1, 2));

        SortedMap<TopicPartition, Integer> after = Balancer.balance(before, topics("a", 6, "b", 5, "c", 3), brokers(0, 1, 2));

        before.forEach((tp, leader) -> assertThat(after.get(tp)).as(tp.toString()).isEqualTo(leader));
        assertThat(perBroker(after, "c").values()).containsOnly(1);
    }

    @Test
    void aDeadBrokerMovesOnlyItsOwnPartitionsEvenly() {
        SortedMap<TopicPartition, Integer> before = Balancer.balance(Map.of(), topics("a", 12, "b", 6), brokers(0, 1, 2, 3));

        SortedMap<TopicPartition, Integer> after = Balancer.balance(before, topics("a", 12, "b", 6), brokers(0, 1, 3));

        before.forEach((tp, leader) -> {
            if (leader != 2) {
                assertThat(after.get(tp)).as(tp + " stays").isEqualTo(leader);
            }
        });
        assertThat(after.values()).doesNotContain(2);
        assertThat(spread(loads(after, brokers(0, 1, 3)))).isLessThanOrEqualTo(1);
        assertThat(spread(perBroker(after, "a", brokers(0, 1, 3)))).isLessThanOrEqualTo(1);
    }

    @Test
    void aJoiningBrokerTakesOnlyWhatEvensTheClusterOut() {
        SortedMap<TopicPartition, Integer> before = Balancer.balance(Map.of(), topics("a", 6, "b", 6), brokers(0, 1));

        SortedMap<TopicPartition, Integer> after = Balancer.balance(before, topics("a", 6, "b", 6), brokers(0, 1, 2));

        long moved = before.keySet().stream().filter(tp -> !before.get(tp).equals(after.get(tp))).count();
        assertThat(moved).as("a third of the partitions, to the new broker").isEqualTo(4);
        assertThat(loads(after, brokers(0, 1, 2)).values()).containsOnly(4);
        assertThat(spread(perBroker(after, "a", brokers(0, 1, 2)))).isLessThanOrEqualTo(1);
        assertThat(spread(perBroker(after, "b", brokers(0, 1, 2)))).isLessThanOrEqualTo(1);
    }

    @Test
    void theSameInputsGiveTheSameAnswer() {
        Random random = new Random(7);
        for (int run = 0; run < 50; run++) {
            SortedMap<String, Integer> topics = randomTopics(random);
            SortedSet<Integer> alive = randomBrokers(random);
            Map<TopicPartition, Integer> previous = randomPrevious(random, topics);
            assertThat(Balancer.balance(previous, topics, alive)).isEqualTo(Balancer.balance(new HashMap<>(previous), topics, alive));
        }
    }

    /** Property, over random clusters: every partition placed on an alive broker, brokers within one of each other. */
    @Test
    void everyPartitionIsPlacedOnAnAliveBrokerAndTheClusterIsEven() {
        for (int seed = 0; seed < SEEDS; seed++) {
            Random random = new Random(seed);
            SortedMap<String, Integer> topics = randomTopics(random);
            SortedSet<Integer> alive = randomBrokers(random);
            SortedMap<TopicPartition, Integer> leaders = Balancer.balance(randomPrevious(random, topics), topics, alive);

            int partitions = topics.values().stream().mapToInt(Integer::intValue).sum();
            assertThat(leaders).as("seed %d", seed).hasSize(partitions);
            assertThat(alive).as("seed %d", seed).containsAll(leaders.values());
            assertThat(spread(loads(leaders, alive))).as("seed %d", seed).isLessThanOrEqualTo(1);
        }
    }

    /** Property: from scratch, each topic is even across the brokers too. */
    @Test
    void aFreshAssignmentIsEvenPerTopic() {
        for (int seed = 0; seed < SEEDS; seed++) {
            Random random = new Random(seed);
            SortedMap<String, Integer> topics = randomTopics(random);
            SortedSet<Integer> alive = randomBrokers(random);
            SortedMap<TopicPartition, Integer> leaders = Balancer.balance(Map.of(), topics, alive);

            for (String topic : topics.keySet()) {
                assertThat(spread(perBroker(leaders, topic, alive))).as("seed %d topic %s", seed, topic).isLessThanOrEqualTo(1);
            }
        }
    }

    /** Property: after a broker dies, partitions whose leader survives keep it (minimal movement). */
    @Test
    void aBrokerLossMovesOnlyItsPartitions() {
        for (int seed = 0; seed < SEEDS; seed++) {
            Random random = new Random(seed);
            SortedMap<String, Integer> topics = randomTopics(random);
            SortedSet<Integer> alive = randomBrokers(random);
            if (alive.size() < 2) {
                continue;
            }
            SortedMap<TopicPartition, Integer> before = Balancer.balance(Map.of(), topics, alive);
            int dead = alive.stream().skip(random.nextInt(alive.size())).findFirst().orElseThrow();
            SortedSet<Integer> survivors = new TreeSet<>(alive);
            survivors.remove(dead);

            SortedMap<TopicPartition, Integer> after = Balancer.balance(before, topics, survivors);

            int finalSeed = seed;
            before.forEach((tp, leader) -> {
                if (leader != dead) {
                    assertThat(after.get(tp)).as("seed %d: %s", finalSeed, tp).isEqualTo(leader);
                }
            });
        }
    }

    /** Property: a recompute with nothing changed changes nothing. */
    @Test
    void aBalancedAssignmentIsAFixedPoint() {
        for (int seed = 0; seed < SEEDS; seed++) {
            Random random = new Random(seed);
            SortedMap<String, Integer> topics = randomTopics(random);
            SortedSet<Integer> alive = randomBrokers(random);
            SortedMap<TopicPartition, Integer> once = Balancer.balance(randomPrevious(random, topics), topics, alive);

            assertThat(Balancer.balance(once, topics, alive)).as("seed %d", seed).isEqualTo(once);
        }
    }

    private static SortedMap<String, Integer> randomTopics(Random random) {
        SortedMap<String, Integer> topics = new TreeMap<>();
        int count = 1 + random.nextInt(8);
        for (int t = 0; t < count; t++) {
            topics.put("topic-" + t, 1 + random.nextInt(random.nextBoolean() ? 4 : 30));
        }
        return topics;
    }

    private static SortedSet<Integer> randomBrokers(Random random) {
        SortedSet<Integer> brokers = new TreeSet<>();
        int count = 1 + random.nextInt(7);
        while (brokers.size() < count) {
            brokers.add(random.nextInt(10));
        }
        return brokers;
    }

    /** Leaders from some earlier cluster: any of brokers 0..9, some partitions unplaced. */
    private static Map<TopicPartition, Integer> randomPrevious(Random random, SortedMap<String, Integer> topics) {
        Map<TopicPartition, Integer> previous = new HashMap<>();
        topics.forEach((topic, count) -> IntStream.range(0, count).forEach(p -> {
            if (random.nextInt(4) > 0) {
                previous.put(new TopicPartition(topic, p), random.nextInt(10));
            }
        }));
        return previous;
    }

    private static SortedMap<String, Integer> topics(Object... namesAndCounts) {
        SortedMap<String, Integer> topics = new TreeMap<>();
        for (int i = 0; i < namesAndCounts.length; i += 2) {
            topics.put((String) namesAndCounts[i], (Integer) namesAndCounts[i + 1]);
        }
        return topics;
    }

    private static SortedSet<Integer> brokers(Integer... ids) {
        return new TreeSet<>(java.util.List.of(ids));
    }

    private static Map<Integer, Integer> loads(Map<TopicPartition, Integer> leaders, SortedSet<Integer> brokers) {
        Map<Integer, Integer> loads = new TreeMap<>();
        brokers.forEach(b -> loads.put(b, 0));
        leaders.values().forEach(b -> loads.merge(b, 1, Integer::sum));
        return loads;
    }

    private static Map<Integer, Integer> perBroker(Map<TopicPartition, Integer> leaders, String topic) {
        Map<Integer, Integer> counts = new TreeMap<>();
        leaders.forEach((tp, b) -> {
            if (tp.topic().equals(topic)) {
                counts.merge(b, 1, Integer::sum);
            }
        });
        return counts;
    }

    private static Map<Integer, Integer> perBroker(Map<TopicPartition, Integer> leaders, String topic, SortedSet<Integer> brokers) {
        Map<Integer, Integer> counts = new TreeMap<>();
        brokers.forEach(b -> counts.put(b, 0));
        counts.putAll(perBroker(leaders, topic));
        return counts;
    }

    private static int spread(Map<Integer, Integer> counts) {
        return counts.isEmpty() ? 0 : Collections.max(counts.values()) - Collections.min(counts.values());
    }
}
