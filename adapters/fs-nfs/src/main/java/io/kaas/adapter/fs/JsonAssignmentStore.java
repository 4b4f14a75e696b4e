package io.kaas.adapter.fs;

import io.kaas.application.port.out.AssignmentStore;
import io.kaas.domain.cluster.Assignment;
import io.kaas.domain.cluster.BrokerHealth;
import io.kaas.domain.cluster.BrokerRow;
import io.kaas.domain.cluster.Leader;
import io.kaas.domain.topic.TopicPartition;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * {@code __cluster/assignment.json}: the controller epoch first, then the version, the registered
 * brokers with their health, each partition's leader and leader epoch, and the explicit group
 * coordinators. Written
 * whole with temp + fsync + rename, so a reader sees one controller's complete answer.
 */
public final class JsonAssignmentStore implements AssignmentStore {
    private final Path file;
    private final JsonFiles files;

    public JsonAssignmentStore(DataLayout layout, JsonFiles files) {
        this.file = layout.assignmentFile();
        this.files = files;
    }

    @Override
    public Optional<Assignment> read() {
        return files.read(file, AssignmentFile.class).map(AssignmentFile::toAssignment);
    }

    @Override
    public void write(Assignment assignment) {
        files.write(file, AssignmentFile.of(assignment));
    }

    record AssignmentFile(long controllerEpoch, long assignmentVersion, int controllerId, List<BrokerEntry> brokers,
                          List<PartitionEntry> partitions, List<GroupEntry> consumerGroups) {
        static AssignmentFile of(Assignment a) {
            return new AssignmentFile(a.controllerEpoch(), a.version(), a.controllerId(),
                    a.brokers().stream().map(b -> new BrokerEntry(b.id(), b.health().name().toLowerCase(Locale.ROOT),
                            b.lastSeenMs())).toList(),
                    a.leaders().entrySet().stream().map(e -> new PartitionEntry(e.getKey().topic(), e.getKey().partition(),
                            e.getValue().broker(), e.getValue().epoch())).toList(),
                    new TreeMap<>(a.consumerGroups()).entrySet().stream()
                            .map(e -> new GroupEntry(e.getKey(), e.getValue())).toList());
        }

        Assignment toAssignment() {
            TreeMap<TopicPartition, Leader> leaders = new TreeMap<>(Assignment.PARTITION_ORDER);
            partitions.forEach(p -> leaders.put(new TopicPartition(p.topic(), p.partition()), new Leader(p.leader(),
                    p.leaderEpoch())));
            Map<String, Integer> groups = new HashMap<>();
            consumerGroups.forEach(g -> groups.put(g.group(), g.coordinator()));
            return new Assignment(controllerEpoch, assignmentVersion, controllerId,
                    brokers.stream().map(b -> new BrokerRow(b.id(), BrokerHealth.valueOf(b.health().toUpperCase(Locale.ROOT)),
                            b.lastSeenMs())).toList(),
                    leaders, groups);
        }
    }

    record BrokerEntry(int id, String health, long lastSeenMs) {
    }

    record PartitionEntry(String topic, int partition, int leader, int leaderEpoch) {
    }

    record GroupEntry(String group, int coordinator) {
    }
}
