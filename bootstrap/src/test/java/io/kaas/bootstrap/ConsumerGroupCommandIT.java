package io.kaas.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kaas.bootstrap.testing.EmbeddedKaas;
import io.kaas.bootstrap.testing.KaasBrokerExtension;
import io.kaas.bootstrap.testing.PollingConsumer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Apache Kafka 3.7's own {@code kafka-consumer-groups} ({@code kafka.admin.ConsumerGroupCommand},
 * from the jars {@code ../shared/tools/peer-kafka.sh} resolves) against the broker, in a separate
 * JVM as an operator runs it. Where that script is not around, the tool cannot run and the test is
 * skipped.
 */
class ConsumerGroupCommandIT {
    private static final String TOOL = "kafka.admin.ConsumerGroupCommand";

    @RegisterExtension
    static final KaasBrokerExtension KAAS = KaasBrokerExtension.create().withEnv(EmbeddedKaas.FAST_GROUPS);

    static String classpath;

    @BeforeAll
    static void start() throws Exception {
        Optional<Path> script = peerScript();
        Assumptions.assumeTrue(script.isPresent(), "shared/tools/peer-kafka.sh is not available");
        classpath = run(List.of("bash", script.get().toString(), "classpath"), 300).trim();
        Assumptions.assumeTrue(!classpath.isEmpty(), "the Kafka 3.7 tool classpath could not be resolved");
    }

    @Test
    void listDescribeResetDeleteOffsetsAndDelete(EmbeddedKaas kaas) throws Exception {
        kaas.createTopic("tool-topic", 2);
        kaas.produce("tool-topic", 20, "value-");
        try (PollingConsumer consumer = kaas.groupMember("tool-group", "tool-topic")) {
            await().atMost(EmbeddedKaas.DEFAULT_TIMEOUT).until(() -> consumer.records().size() == 20);
            consumer.commitSync();

            assertThat(tool("--list")).contains("tool-group");

            // The tool waits 5 s by default for a group to describe: too short on a loaded 2-core CI machine.
            String describe = tool("--describe", "--group", "tool-group", "--timeout", "30000");
            List<String> rows = rows(describe, "tool-topic");
            assertThat(rows).as(describe).hasSize(2).allSatisfy(row -> {
                assertThat(row).contains(consumer.memberId(), "/127.0.0.1", "consumer-tool-group");
                assertThat(columns(row).get(5)).as("lag").isEqualTo("0");
            });
            assertThat(tool("--describe", "--group", "tool-group", "--state", "--timeout", "30000")).contains("Stable", "range");
        }

        String idle = tool("--describe", "--group", "tool-group", "--timeout", "30000");
        assertThat(idle).contains("Consumer group 'tool-group' has no active members.");

        // Idempotent, so retried while a loaded machine's tool times out or the group is still leaving its last rebalance.
        String[] reset = {""};
        await().atMost(Duration.ofSeconds(90)).until(() -> rows(reset[0] = tool("--reset-offsets", "--to-earliest",
                "--execute", "--group", "tool-group", "--topic", "tool-topic"), "tool-topic").size() == 2);
        assertThat(rows(reset[0], "tool-topic")).as(reset[0]).allSatisfy(row -> assertThat(columns(row).get(3)).isEqualTo("0"));
        assertThat(committed("tool-group")).containsOnly(Map.entry(new TopicPartition("tool-topic", 0), new OffsetAndMetadata(0)),
                Map.entry(new TopicPartition("tool-topic", 1), new OffsetAndMetadata(0)));

        String deleteOffsets = tool("--delete-offsets", "--group", "tool-group", "--topic", "tool-topic");
        assertThat(deleteOffsets).contains("Request succeed for deleting offsets");
        assertThat(rows(deleteOffsets, "tool-topic")).hasSize(2).allSatisfy(row -> assertThat(row).contains("Successful"));
        assertThat(committed("tool-group")).isEmpty();

        kaas.admin().alterConsumerGroupOffsets("tool-group", Map.of(new TopicPartition("tool-topic", 0),
                new OffsetAndMetadata(1))).all().get();
        assertThat(tool("--delete", "--group", "tool-group"))
                .contains("Deletion of requested consumer groups ('tool-group') was successful.");
        assertThat(tool("--list")).doesNotContain("tool-group");
    }

    private static Map<TopicPartition, OffsetAndMetadata> committed(String group) throws Exception {
        return KAAS.kaas().admin().listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get();
    }

    private static String tool(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(javaBinary(), "-cp", classpath, TOOL,
                "--bootstrap-server", KAAS.bootstrapServers()));
        command.addAll(List.of(args));
        return run(command, 60);
    }

    /** The table rows about {@code topic} (it is the first or, after the group, the second column). */
    private static List<String> rows(String output, String topic) {
        return output.lines().filter(line -> columns(line).indexOf(topic) == 0 || columns(line).indexOf(topic) == 1)
                .toList();
    }

    private static List<String> columns(String line) {
        return List.of(line.trim().split("\\s+"));
    }

    private static String run(List<String> command, int timeoutSeconds) throws IOException, InterruptedException {
        Path output = Files.createTempFile("tool", ".out");
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
            if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError("timed out: " + command);
            }
            return Files.readString(output, StandardCharsets.UTF_8);
        } finally {
            Files.deleteIfExists(output);
        }
    }

    private static String javaBinary() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** {@code shared/tools/peer-kafka.sh} beside the project (../shared from its root), looked up from here upwards. */
    private static Optional<Path> peerScript() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path script = dir.resolve("shared/tools/peer-kafka.sh");
            if (Files.isRegularFile(script)) {
                return Optional.of(script);
            }
        }
        return Optional.empty();
    }
}
