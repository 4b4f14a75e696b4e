package io.kaas.adapter.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.adapter.fs.sim.SimulatedFilesystem;
import io.kaas.domain.cluster.Assignment;
import io.kaas.domain.cluster.BrokerHealth;
import io.kaas.domain.cluster.BrokerRow;
import io.kaas.domain.cluster.Leader;
import io.kaas.domain.topic.TopicPartition;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JsonAssignmentStoreTest {
    private static final Path ROOT = Path.of("/volume");

    @TempDir
    Path dir;

    private static Assignment assignment(long epoch, long version) {
        TreeMap<TopicPartition, Leader> leaders = new TreeMap<>(Assignment.PARTITION_ORDER);
        leaders.put(new TopicPartition("orders", 1), new Leader(2, 5));
        leaders.put(new TopicPartition("orders", 0), new Leader(0, 4));
        return new Assignment(epoch, version, 0,
                List.of(new BrokerRow(0, BrokerHealth.ALIVE, 1_000), new BrokerRow(1, BrokerHealth.DEAD, 500),
                        new BrokerRow(2, BrokerHealth.DRAINING, 900)),
                leaders, Map.of("payments", 2));
    }

    @Test
    void nothingBeforeAControllerWroteOne() {
        assertThat(new JsonAssignmentStore(new DataLayout(dir), new JsonFiles(new NioFilesystem(), new JacksonCodec())).read())
                .isEmpty();
    }

    @Test
    void roundTripsEveryFieldWithTheEpochFirst() throws Exception {
        JsonAssignmentStore store = new JsonAssignmentStore(new DataLayout(dir), new JsonFiles(new NioFilesystem(), new JacksonCodec()));

        store.write(assignment(7, 3));

        assertThat(store.read()).hasValue(assignment(7, 3));
        String json = Files.readString(dir.resolve("__cluster/assignment.json"), StandardCharsets.UTF_8).replaceAll("\\s", "");
        assertThat(json).startsWith("{\"controllerEpoch\":7,\"assignmentVersion\":3");
        assertThat(json).contains("\"health\":\"draining\"", "{\"topic\":\"orders\",\"partition\":0,\"leader\":0,\"leaderEpoch\":4}",
                "{\"group\":\"payments\",\"coordinator\":2}");
    }

    @Test
    void aCrashLeavesTheLastDurableAssignmentWhole() {
        SimulatedFilesystem fs = new SimulatedFilesystem(11);
        JsonAssignmentStore store = new JsonAssignmentStore(new DataLayout(ROOT), new JsonFiles(fs, new JacksonCodec()));
        store.write(assignment(1, 1));

        fs.failNextFsyncs(1);
        assertThatThrownBy(() -> store.write(assignment(1, 2))).isInstanceOf(UncheckedIOException.class);
        fs.crash();

        assertThat(store.read()).hasValue(assignment(1, 1));
        store.write(assignment(1, 2));
        fs.crash();
        assertThat(store.read()).hasValue(assignment(1, 2));
    }
}
