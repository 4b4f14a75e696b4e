package io.kaas.domain.cluster;

import io.kaas.domain.topic.TopicPartition;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Places partition leaders on the alive brokers, deciding as little as possible: every recompute
 * starts from the previous answer, because each moved partition costs a takeover (the new leader
 * opens and recovers the log; the old one keeps acknowledging until it notices).
 * <ol>
 *   <li>Keep every partition whose leader is still alive.</li>
 *   <li>Place the rest, each on the broker leading the fewest partitions of its topic.</li>
 *   <li>Even out the brokers until none leads more than one partition more than another.</li>
 *   <li>Even out each topic by swapping partitions between two brokers, which keeps step 3's balance.</li>
 * </ol>
 * Step 3 moves partitions placed in this round before inherited ones; step 4 trades only partitions
 * that move anyway (placed or moved in this round), so a broker's loss moves only its own partitions.
 * Deterministic: the same inputs give the same answer on every broker.
 */
public final class Balancer {

    private Balancer() {
    }

    /**
     * @param previous    the leaders of the last assignment (partitions of deleted topics are ignored)
     * @param topics      every topic and its partition count
     * @param alive       the brokers that may lead; none means nothing is placed
     */
    public static SortedMap<TopicPartition, Integer> balance(Map<TopicPartition, Integer> previous,
                                                             SortedMap<String, Integer> topics, SortedSet<Integer> alive) {
        SortedMap<TopicPartition, Integer> leaders = new TreeMap<>(Assignment.PARTITION_ORDER);
        if (alive.isEmpty()) {
            return leaders;
        }
        Placement placement = new Placement(alive, topics.keySet());
        List<TopicPartition> unplaced = new ArrayList<>();
        topics.forEach((topic, count) -> {
            for (int p = 0; p < count; p++) {
                TopicPartition tp = new TopicPartition(topic, p);
                Integer leader = previous.get(tp);
                if (leader != null && alive.contains(leader)) {
                    placement.put(tp, leader, false);
                } else {
                    unplaced.add(tp);
                }
            }
        });
        for (TopicPartition tp : unplaced) {
            placement.put(tp, placement.fewestOf(tp.topic()), true);
        }
        placement.evenOutBrokers();
        placement.evenOutTopics();
        leaders.putAll(placement.leaders);
        return leaders;
    }

    /** The assignment being built: leaders, and per broker its partitions (all, and per topic). */
    private static final class Placement {
        final List<Integer> brokers;
        final List<String> topics;
        final Map<TopicPartition, Integer> leaders = new HashMap<>();
        /** Partitions placed or moved in this round: moving them again costs no further takeover. */
        final Set<TopicPartition> placedNow = new HashSet<>();
        final Map<Integer, Integer> load = new HashMap<>();
        final Map<String, Map<Integer, SortedSet<TopicPartition>>> byTopic = new HashMap<>();

        Placement(SortedSet<Integer> alive, Set<String> topics) {
            this.brokers = List.copyOf(alive);
            this.topics = List.copyOf(topics);
            for (int b : brokers) {
                load.put(b, 0);
            }
            for (String topic : topics) {
                Map<Integer, SortedSet<TopicPartition>> perBroker = new HashMap<>();
                for (int b : brokers) {
                    perBroker.put(b, new TreeSet<>(Assignment.PARTITION_ORDER));
                }
                byTopic.put(topic, perBroker);
            }
        }

        void put(TopicPartition tp, int broker, boolean now) {
            leaders.put(tp, broker);
            load.merge(broker, 1, Integer::sum);
            byTopic.get(tp.topic()).get(broker).add(tp);
            if (now) {
                placedNow.add(tp);
            }
        }

        void move(TopicPartition tp, int to) {
            placedNow.add(tp);
            int from = leaders.get(tp);
            byTopic.get(tp.topic()).get(from).remove(tp);
            load.merge(from, -1, Integer::sum);
            leaders.put(tp, to);
            load.merge(to, 1, Integer::sum);
            byTopic.get(tp.topic()).get(to).add(tp);
        }

        int count(String topic, int broker) {
            return byTopic.get(topic).get(broker).size();
        }

        /** The broker with the fewest partitions of {@code topic}; then the least loaded; then the lowest id. */
        int fewestOf(String topic) {
            int best = brokers.get(0);
            for (int b : brokers) {
                int c = count(topic, b);
                int bestCount = count(topic, best);
                if (c < bestCount || c == bestCount && load.get(b) < load.get(best)) {
                    best = b;
                }
            }
            return best;
        }

        /** Step 3: move from the most to the least loaded broker until they differ by at most one. */
        void evenOutBrokers() {
            while (true) {
                int most = brokers.get(0);
                int least = brokers.get(0);
                for (int b : brokers) {
                    if (load.get(b) > load.get(most)) {
                        most = b;
                    }
                    if (load.get(b) < load.get(least)) {
                        least = b;
                    }
                }
                if (load.get(most) - load.get(least) <= 1) {
                    return;
                }
                move(cheapestToMove(most, least), least);
            }
        }

        /**
         * Which of {@code from}'s partitions goes to {@code to}: one placed this round before an
         * inherited one, then the one whose topic {@code from} has most of over {@code to}.
         */
        private TopicPartition cheapestToMove(int from, int to) {
            TopicPartition best = null;
            int bestScore = Integer.MIN_VALUE;
            for (String topic : topics) {
                for (TopicPartition tp : byTopic.get(topic).get(from)) {
                    int score = (placedNow.contains(tp) ? 1_000_000 : 0) + count(topic, from) - count(topic, to);
                    if (score > bestScore) {
                        best = tp;
                        bestScore = score;
                    }
                }
            }
            return best;
        }

        /**
         * Step 4: while a topic has a broker with two or more partitions more than another, swap one
         * of them for a partition of a topic the receiving broker has more of (never making that
         * topic less even), or move it outright where the cluster balance allows; only partitions
         * placed or moved in this round trade. Each step lowers the sum over topics and brokers of
         * the squared counts, so it ends.
         */
        void evenOutTopics() {
            boolean changed = true;
            while (changed) {
                changed = false;
                for (String topic : topics) {
                    while (evenOutOnce(topic)) {
                        changed = true;
                    }
                }
            }
        }

        private boolean evenOutOnce(String topic) {
            for (int a : brokers) {
                for (int b : brokers) {
                    if (count(topic, a) - count(topic, b) >= 2 && trade(topic, a, b)) {
                        return true;
                    }
                }
            }
            return false;
        }

        /** Gives one of {@code a}'s partitions of {@code topic} to {@code b}, keeping the cluster even. */
        private boolean trade(String topic, int a, int b) {
            TopicPartition give = firstPlacedNow(byTopic.get(topic).get(a));
            if (give == null) {
                return false;
            }
            if (load.get(a) > load.get(b)) {
                move(give, b);
                return true;
            }
            for (String other : topics) {
                if (!other.equals(topic) && count(other, b) > count(other, a)) {
                    TopicPartition back = firstPlacedNow(byTopic.get(other).get(b));
                    if (back != null) {
                        move(give, b);
                        move(back, a);
                        return true;
                    }
                }
            }
            return false;
        }

        private TopicPartition firstPlacedNow(SortedSet<TopicPartition> partitions) {
            for (TopicPartition tp : partitions) {
                if (placedNow.contains(tp)) {
                    return tp;
                }
            }
            return null;
        }
    }
}
