package io.kaas.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kaas.bootstrap.testing.ApacheTool;
import io.kaas.bootstrap.testing.EmbeddedKaas;
import io.kaas.bootstrap.testing.KaasBrokerExtension;
import io.kaas.bootstrap.testing.PollingConsumer;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Apache Kafka 3.7's own {@code kafka-consumer-groups} ({@code kafka.admin.ConsumerGroupCommand},
 * through {@link ApacheTool}) against the broker, in a separate JVM as an operator runs it. Where the
 * tools cannot be resolved the test is skipped.
 */
class ConsumerGroupCommandIT {
    private static final String TOOL = "kafka.admin.ConsumerGroupCommand";

    @RegisterExtension
    static final KaasBrokerExtension KAAS = KaasBrokerExtension.create().withEnv(EmbeddedKaas.FAST_GROUPS);

    static ApacheTool tools;

    @BeforeAll
    static void start() throws Exception {
        tools = ApacheTool.resolve();
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
        List<String> command = new ArrayList<>(List.of("--bootstrap-server", KAAS.bootstrapServers()));
        command.addAll(List.of(args));
        return tools.run(TOOL, command);
    }

    /** The table rows about {@code topic} (it is the first or, after the group, the second column). */
    private static List<String> rows(String output, String topic) {
        return output.lines().filter(line -> columns(line).indexOf(topic) == 0 || columns(line).indexOf(topic) == 1)
                .toList();
    }

    private static List<String> columns(String line) {
        return List.of(line.trim().split("\\s+"));
    }
}
