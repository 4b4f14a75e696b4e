package io.kaas.domain.cluster;

import io.kaas.domain.group.CoordinatorRouting;
import io.kaas.domain.topic.TopicPartition;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Who leads what, as one controller decided it: the content of {@code __cluster/assignment.json}.
 * Every leadership answer a broker gives (Metadata, the Produce/Fetch ownership check, readiness)
 * comes from the assignment it last accepted.
 *
 * @param controllerEpoch the Lease's {@code leaseTransitions} when its holder wrote this
 * @param version         rises with every assignment one controller writes
 * @param controllerId    the broker that wrote it
 * @param brokers         every registered broker, dead and draining ones included, by id
 * @param leaders         each partition's leader and leader epoch, ordered by topic then partition
 * @param consumerGroups  explicit group coordinators; a group without an entry is routed by hash
 */
public record Assignment(long controllerEpoch, long version, int controllerId, List<BrokerRow> brokers,
                         SortedMap<TopicPartition, Leader> leaders, Map<String, Integer> consumerGroups) {

    public static final Comparator<TopicPartition> PARTITION_ORDER =
            Comparator.comparing(TopicPartition::topic).thenComparingInt(TopicPartition::partition);

    public Assignment {
        brokers = List.copyOf(brokers.stream().sorted(Comparator.comparingInt(BrokerRow::id)).toList());
        TreeMap<TopicPartition, Leader> sorted = new TreeMap<>(PARTITION_ORDER);
        sorted.putAll(leaders);
        leaders = Collections.unmodifiableSortedMap(sorted);
        consumerGroups = Map.copyOf(consumerGroups);
    }

    /** The leader of a partition; empty when this assignment does not place it. */
    public Optional<Leader> leaderOf(TopicPartition partition) {
        return Optional.ofNullable(leaders.get(partition));
    }

    /** The partitions a broker leads here. */
    public Set<TopicPartition> ledBy(int brokerId) {
        return leaders.entrySet().stream().filter(e -> e.getValue().broker() == brokerId).map(Map.Entry::getKey)
                .collect(Collectors.toCollection(() -> new TreeSet<>(PARTITION_ORDER)));
    }

    /** Every registered broker id: the coordinator divisor. */
    public List<Integer> registered() {
        return brokers.stream().map(BrokerRow::id).toList();
    }

    public Set<Integer> alive() {
        return brokers.stream().filter(BrokerRow::alive).map(BrokerRow::id).collect(Collectors.toUnmodifiableSet());
    }

    /**
     * The coordinator of a group (or of a transaction slot's name), in two tiers: an explicit entry
     * wins; otherwise the FNV-1a hash over the registered set, falling back into the alive brokers.
     */
    public OptionalInt coordinatorOf(String key) {
        Integer explicit = consumerGroups.get(key);
        if (explicit != null) {
            return OptionalInt.of(explicit);
        }
        return CoordinatorRouting.coordinatorFor(key, registered(), alive());
    }

    /** Whether this assignment came after {@code other}: a newer controller epoch, or the same one and a higher version. */
    public boolean isNewerThan(Assignment other) {
        return controllerEpoch > other.controllerEpoch
                || controllerEpoch == other.controllerEpoch && version > other.version;
    }
}
