package io.kaas.operator.reconciler.topic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.kaas.adapter.fs.DataLayout;
import io.kaas.adapter.fs.JacksonCodec;
import io.kaas.adapter.fs.JsonFiles;
import io.kaas.adapter.fs.JsonTopicStore;
import io.kaas.adapter.fs.NioFilesystem;
import io.kaas.adapter.fs.VolumePoolSetting;
import io.kaas.adapter.k8s.crd.Condition;
import io.kaas.adapter.k8s.crd.KafkaTopic;
import io.kaas.adapter.k8s.crd.KafkaTopicConfig;
import io.kaas.adapter.k8s.crd.KafkaTopicSpec;
import io.kaas.adapter.k8s.crd.TopicStorage;
import io.kaas.domain.topic.Topic;
import io.kaas.domain.topic.TopicIds;
import io.kaas.operator.DevApiServerHarness;
import io.kaas.operator.model.ReadyCondition;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real java-operator-sdk {@code Operator} running the KafkaTopic reconciler and the orphan sweep against the
 * development API server (fabric8's mock in CRUD mode, with the chart's CRD created in it) and a temporary directory as
 * the shared volume. Assertions read the files the brokers read.
 */
class KafkaTopicReconcilerIT {
    private static final String NAMESPACE = DevApiServerHarness.NAMESPACE;
    private static final Duration NO_SWEEP_AFTER_THE_FIRST = Duration.ofHours(1);
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path data;
    /** Where the volume pool's members are mounted, each in a directory of its name. */
    @TempDir
    Path vols;

    private DevApiServerHarness world;
    private KubernetesClient client;

    @BeforeEach
    void startApiServer() {
        world = new DevApiServerHarness(data);
        client = world.client();
    }

    @AfterEach
    void stop() {
        world.close();
    }

    @Test
    void aNewKafkaTopicBecomesItsDirectoryAndIsReadyWithATopicId() throws IOException {
        start(NO_SWEEP_AFTER_THE_FIRST);

        create("orders", 3, config -> {
            config.setRetentionMs(86_400_000L);
            config.setCleanupPolicy("compact,delete");
        });
        KafkaTopic ready = awaitReady("orders", 1);

        UUID topicId = UUID.fromString(ready.getStatus().getTopicId());
        assertThat(topicId.version()).as("a random (v4) UUID").isEqualTo(4);
        assertThat(ready.getStatus().getVolumeAssignments()).containsExactlyInAnyOrderEntriesOf(
                Map.of("0", "default", "1", "default", "2", "default"));
        assertThat(ready.getStatus().getPartitionsOutsideSpec()).isZero();
        assertThat(partitionDirectories("orders")).containsExactly("0", "1", "2");
        assertThat(json(data.resolve("orders/.config.json"))).isEqualTo(JSON.readTree(
                "{\"partitions\":3,\"configs\":{\"cleanup.policy\":\"compact,delete\",\"retention.ms\":\"86400000\"}}"));
        assertThat(json(data.resolve("orders/.topic-id.json"))).isEqualTo(JSON.createObjectNode()
                .put("topicId", TopicIds.toBase64(topicId)));
    }

    @Test
    void theBrokersTopicStoreReadsWhatTheOperatorWrote() {
        start(NO_SWEEP_AFTER_THE_FIRST);
        create("payments", 4, config -> config.setSegmentBytes(268_435_456));
        UUID topicId = UUID.fromString(awaitReady("payments", 1).getStatus().getTopicId());

        JsonTopicStore brokers = JsonTopicStore.shared(new DataLayout(data), new JsonFiles(new NioFilesystem(),
                new JacksonCodec()));

        assertThat(brokers.loadAll()).containsExactly(new Topic("payments", topicId, 4,
                Map.of("segment.bytes", "268435456")));
    }

    @Test
    void aConfigChangeRewritesConfigJsonAndKeepsTheId() throws IOException {
        start(NO_SWEEP_AFTER_THE_FIRST);
        create("orders", 2, config -> config.setRetentionMs(86_400_000L));
        String topicId = awaitReady("orders", 1).getStatus().getTopicId();
        String stamp = Files.readString(data.resolve("orders/.topic-id.json"));

        topic("orders").edit(t -> {
            t.getSpec().getConfig().setRetentionMs(-1L);
            t.getSpec().getConfig().setMaxMessageBytes(2_097_152);
            return t;
        });

        assertThat(awaitReady("orders", 2).getStatus().getTopicId()).isEqualTo(topicId);
        assertThat(json(data.resolve("orders/.config.json"))).isEqualTo(JSON.readTree(
                "{\"partitions\":2,\"configs\":{\"max.message.bytes\":\"2097152\",\"retention.ms\":\"-1\"}}"));
        assertThat(Files.readString(data.resolve("orders/.topic-id.json"))).isEqualTo(stamp);
    }

    @Test
    void morePartitionsAddTheirDirectories() throws IOException {
        start(NO_SWEEP_AFTER_THE_FIRST);
        create("orders", 2, config -> { });
        String topicId = awaitReady("orders", 1).getStatus().getTopicId();
        Files.write(data.resolve("orders/0/00000001-00000000000000000000.log"), new byte[] {1, 2, 3});

        topic("orders").edit(t -> {
            t.getSpec().setPartitions(5);
            return t;
        });

        KafkaTopic grown = awaitReady("orders", 2);
        assertThat(grown.getStatus().getTopicId()).isEqualTo(topicId);
        assertThat(grown.getStatus().getVolumeAssignments()).hasSize(5);
        assertThat(partitionDirectories("orders")).containsExactly("0", "1", "2", "3", "4");
        assertThat(json(data.resolve("orders/.config.json")).get("partitions").asInt()).isEqualTo(5);
        assertThat(Files.readAllBytes(data.resolve("orders/0/00000001-00000000000000000000.log")))
                .as("existing partitions are not touched").containsExactly(1, 2, 3);
    }

    @Test
    void fewerPartitionsAreRefusedAndNothingOnTheVolumeChanges() throws IOException {
        start(NO_SWEEP_AFTER_THE_FIRST);
        create("orders", 3, config -> config.setRetentionMs(3_600_000L));
        awaitReady("orders", 1);
        Map<String, String> before = volume();

        topic("orders").edit(t -> {
            t.getSpec().setPartitions(1);
            t.getSpec().getConfig().setRetentionMs(60_000L); // refused with the decrease: nothing is applied
            return t;
        });

        Condition refused = awaitReadyCondition("orders", 2);
        assertThat(refused.getStatus()).isEqualTo("False");
        assertThat(refused.getReason()).isEqualTo("PartitionDecreaseRefused");
        assertThat(refused.getMessage()).contains("has 3 partitions", "spec.partitions 1");
        assertThat(volume()).isEqualTo(before);

        topic("orders").edit(t -> {
            t.getSpec().setPartitions(3);
            return t;
        });
        assertThat(awaitReadyCondition("orders", 3).getStatus()).isEqualTo("True");
        assertThat(json(data.resolve("orders/.config.json")).get("configs").get("retention.ms").asText())
                .isEqualTo("60000");
    }

    @Test
    void deletingAKafkaTopicReclaimsItsDirectoryAtOnceAndNothingElse() throws IOException {
        start(NO_SWEEP_AFTER_THE_FIRST); // no sweep pass comes: the deletion itself must reclaim the directory
        create("orders", 2, config -> { });
        create("payments", 1, config -> { });
        awaitReady("orders", 1);
        awaitReady("payments", 1);
        Files.createDirectories(data.resolve("__cluster/txn_state"));
        Files.writeString(data.resolve("__cluster/assignment.json"), "{}");
        Map<String, String> payments = volume("payments");

        topic("orders").delete();

        await().atMost(Duration.ofSeconds(20)).until(() -> !Files.exists(data.resolve("orders")));
        assertThat(volume("payments")).isEqualTo(payments);
        assertThat(data.resolve("__cluster/assignment.json")).hasContent("{}");
        assertThat(data.resolve("__cluster/txn_state")).isDirectory();
    }

    @Test
    void theSweepReclaimsADirectoryNoKafkaTopicDeclaresAndNothingElse() throws IOException {
        // A KafkaTopic deleted while no operator watched: its directory is all that is left of it.
        Files.createDirectories(data.resolve("orders/0"));
        JsonTopicStore.shared(new DataLayout(data), new JsonFiles(new NioFilesystem(), new JacksonCodec()))
                .save(new Topic("orders", UUID.randomUUID(), 1, Map.of()));
        Files.createDirectories(data.resolve("__cluster/txn_state"));
        Files.writeString(data.resolve("__cluster/assignment.json"), "{}");
        Files.createDirectories(data.resolve("lost+found"));
        Files.writeString(data.resolve(".kaas.lock"), "");
        start(Duration.ofMillis(200));
        create("payments", 1, config -> { });
        awaitReady("payments", 1);
        Map<String, String> payments = volume("payments");

        await().atMost(Duration.ofSeconds(20)).until(() -> !Files.exists(data.resolve("orders")));
        await().during(Duration.ofMillis(600)).atMost(Duration.ofSeconds(5)).untilAsserted(() ->
                assertThat(volume("payments")).as("passes after it exists leave it").isEqualTo(payments));
        assertThat(data.resolve("__cluster/assignment.json")).hasContent("{}");
        assertThat(data.resolve("__cluster/txn_state")).isDirectory();
        assertThat(data.resolve("lost+found")).isDirectory();
        assertThat(data.resolve(".kaas.lock")).exists();
    }

    @Test
    void aKafkaTopicCreatedAgainGetsANewIdAndNeverItsPredecessorsFiles() throws IOException {
        start(NO_SWEEP_AFTER_THE_FIRST);
        create("orders", 3, config -> config.setRetentionMs(-1L));
        String firstId = awaitReady("orders", 1).getStatus().getTopicId();
        Files.write(data.resolve("orders/0/00000001-00000000000000000000.log"), new byte[] {1, 2, 3});
        Files.writeString(data.resolve("orders/0/manifest.json"), "{\"epoch\":1}");

        // Deleted and created again while no operator watched: the reconciler must tell the incarnations apart.
        world.stopOperator();
        topic("orders").delete();
        await().atMost(Duration.ofSeconds(10)).until(() -> topic("orders").get() == null);
        create("orders", 1, config -> { });
        start(NO_SWEEP_AFTER_THE_FIRST);

        KafkaTopic second = awaitReady("orders", 1);
        assertThat(second.getStatus().getTopicId()).isNotEqualTo(firstId);
        assertThat(json(data.resolve("orders/.topic-id.json")).get("topicId").asText())
                .isEqualTo(TopicIds.toBase64(UUID.fromString(second.getStatus().getTopicId())));
        assertThat(json(data.resolve("orders/.config.json"))).isEqualTo(JSON.readTree(
                "{\"partitions\":1,\"configs\":{}}"));
        assertThat(volume("orders")).as("the new incarnation's directory holds nothing of the old one")
                .containsOnlyKeys(".config.json", ".topic-id.json", "0/", "0/log-dir.json");
    }

    @Test
    void aKafkaTopicBeingDeletedIsLeftUntouched() throws IOException {
        start(Duration.ofMillis(200));
        KafkaTopic held = resource("orders", 2, config -> { });
        held.getMetadata().getFinalizers().add("example.com/hold"); // someone else's: deletion waits for it
        client.resource(held).create();
        KafkaTopic ready = awaitReady("orders", 1);
        Map<String, String> before = volume();

        topic("orders").delete();
        await().atMost(Duration.ofSeconds(10)).until(() -> topic("orders").get().isMarkedForDeletion());
        topic("orders").edit(t -> {
            t.getSpec().setPartitions(4);
            return t;
        });

        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
            assertThat(volume()).isEqualTo(before);
            assertThat(ReadyCondition.of(topic("orders").get().getStatus().getConditions()).getObservedGeneration())
                    .isEqualTo(ready.getMetadata().getGeneration());
        });
    }

    // ------------------------------------------------------------------------------------------ the volume pool

    @Test
    void aPinnedTopicIsOnItsMemberAnUnboundOneOnTheDefaultSetASelectedOneOnWhatItsLabelsMatch() throws IOException {
        startWithPool(NO_SWEEP_AFTER_THE_FIRST, member("bulk", true, false, Map.of("class", "standard")),
                member("premium", false, false, Map.of("class", "premium")));
        create("orders", 3, storage(List.of("premium"), null));
        create("events", 3, storage(null, null));
        create("audit", 2, storage(null, Map.of("class", "premium")));

        KafkaTopic orders = awaitReady("orders", 1);
        assertThat(orders.getStatus().getVolumeAssignments()).containsExactlyInAnyOrderEntriesOf(
                Map.of("0", "premium", "1", "premium", "2", "premium"));
        assertThat(orders.getStatus().getPartitionsOutsideSpec()).isZero();
        assertThat(placements("orders", 3)).containsExactly("premium", "premium", "premium");
        assertThat(memberPartitions("premium", "orders")).containsExactly("0", "1", "2");
        assertThat(vols.resolve("bulk/orders")).doesNotExist();

        assertThat(awaitReady("events", 1).getStatus().getVolumeAssignments()).as("default and bulk, not the reserved"
                + " premium").containsExactlyInAnyOrderEntriesOf(Map.of("0", "default", "1", "bulk", "2", "default"));
        assertThat(placements("events", 3)).containsExactly("default", "bulk", "default");
        assertThat(memberPartitions("bulk", "events")).containsExactly("1");

        assertThat(awaitReady("audit", 1).getStatus().getVolumeAssignments())
                .containsExactlyInAnyOrderEntriesOf(Map.of("0", "premium", "1", "premium"));
        assertThat(placements("audit", 2)).containsExactly("premium", "premium");
    }

    @Test
    void aBindingNamingAnUnknownMemberOrSelectingNothingIsRefusedAndWritesNothing() throws IOException {
        startWithPool(NO_SWEEP_AFTER_THE_FIRST, member("bulk", true, false, Map.of("class", "standard")));
        create("orders", 1, storage(List.of("fast"), null));
        create("events", 1, storage(null, Map.of("class", "gold")));

        for (String topic : List.of("orders", "events")) {
            Condition refused = awaitReadyCondition(topic, 1);
            assertThat(refused.getStatus()).isEqualTo("False");
            assertThat(refused.getReason()).isEqualTo("InvalidVolumeBinding");
            assertThat(data.resolve(topic)).doesNotExist();
            assertThat(vols.resolve("bulk").resolve(topic)).doesNotExist();
        }
        assertThat(awaitReadyCondition("orders", 1).getMessage()).contains("[fast]", "not in the volume pool");
        assertThat(awaitReadyCondition("events", 1).getMessage()).contains("selects no volume");
    }

    @Test
    void editingTheBindingMovesNothingAndOnlyNewPartitionsArePlacedNeverOnACordonedMember() throws IOException {
        startWithPool(NO_SWEEP_AFTER_THE_FIRST, member("bulk", true, false, Map.of()),
                member("premium", false, false, Map.of()), member("old", false, true, Map.of()));
        create("orders", 2, storage(List.of("bulk"), null));
        awaitReady("orders", 1);
        Path segment = vols.resolve("bulk/orders/0/00000001-00000000000000000000.log");
        Files.write(segment, new byte[] {1, 2, 3});

        topic("orders").edit(t -> {
            t.getSpec().setPartitions(4);
            t.getSpec().setStorage(storage(List.of("old", "premium"), null));
            return t;
        });

        KafkaTopic grown = awaitReady("orders", 2);
        assertThat(grown.getStatus().getVolumeAssignments()).containsExactlyInAnyOrderEntriesOf(
                Map.of("0", "bulk", "1", "bulk", "2", "premium", "3", "premium"));
        assertThat(grown.getStatus().getPartitionsOutsideSpec()).as("0 and 1 stay on bulk").isEqualTo(2);
        assertThat(placements("orders", 4)).containsExactly("bulk", "bulk", "premium", "premium");
        assertThat(Files.readAllBytes(segment)).as("existing partitions are not touched").containsExactly(1, 2, 3);
        assertThat(vols.resolve("old/orders")).as("cordoned: no new partition, though named").doesNotExist();

        create("legacy", 1, storage(List.of("old"), null));
        Condition refused = awaitReadyCondition("legacy", 1);
        assertThat(refused.getReason()).isEqualTo("InvalidVolumeBinding");
        assertThat(refused.getMessage()).contains("cordoned");
        assertThat(data.resolve("legacy")).doesNotExist();
    }

    @Test
    void aPartitionItsLeaderMovedIsReportedWhereItIsAndNeverPlacedAgain() throws IOException {
        startWithPool(NO_SWEEP_AFTER_THE_FIRST, member("bulk", false, false, Map.of()),
                member("premium", false, false, Map.of()));
        create("orders", 2, storage(List.of("premium"), null));
        awaitReady("orders", 1);
        // what a broker's move of orders-1 to bulk leaves: the files there, its switch recorded at its leader epoch
        Path segment = Files.createDirectories(vols.resolve("bulk/orders/1"))
                .resolve("00000003-00000000000000000000.log");
        Files.write(segment, new byte[] {1, 2, 3});
        Path switched = data.resolve("orders/1/log-dir.3.json");
        Files.writeString(switched, "{\"logDir\": \"bulk\", \"moved\": true}");

        topic("orders").edit(t -> {
            t.getSpec().setPartitions(3);
            return t;
        });

        KafkaTopic grown = awaitReady("orders", 2);
        assertThat(grown.getStatus().getVolumeAssignments()).as("the record in force, the leader's")
                .containsExactlyInAnyOrderEntriesOf(Map.of("0", "premium", "1", "bulk", "2", "premium"));
        assertThat(grown.getStatus().getPartitionsOutsideSpec()).isEqualTo(1);
        assertThat(json(switched).get("logDir").asText()).isEqualTo("bulk");
        assertThat(Files.readAllBytes(segment)).as("the moved partition is not touched").containsExactly(1, 2, 3);
        assertThat(placements("orders", 3)).as("the operator's own records").containsExactly("premium", "premium",
                "premium");
    }

    @Test
    void anAdoptedDirectorysPartitionThatHoldsALogStaysOnTheDataVolume() throws IOException {
        Path segment = data.resolve("orders/0/00000001-00000000000000000000.log"); // no stamp: adopted, not reclaimed
        Files.createDirectories(segment.getParent());
        Files.write(segment, new byte[] {1, 2, 3});
        create("orders", 2, storage(List.of("bulk"), null)); // declared before the first sweep lists it
        startWithPool(NO_SWEEP_AFTER_THE_FIRST, member("bulk", false, false, Map.of()));

        KafkaTopic ready = awaitReady("orders", 1);
        assertThat(ready.getStatus().getVolumeAssignments()).containsExactlyInAnyOrderEntriesOf(
                Map.of("0", "default", "1", "bulk"));
        assertThat(ready.getStatus().getPartitionsOutsideSpec()).isEqualTo(1);
        assertThat(placements("orders", 2)).containsExactly("default", "bulk");
        assertThat(Files.readAllBytes(segment)).containsExactly(1, 2, 3);
    }

    @Test
    void anUnmountedMemberStopsTheOperatorFromStarting() {
        VolumePoolSetting.Member missing = new VolumePoolSetting.Member("bulk", vols.resolve("bulk").toString(), true,
                Map.of(), false);

        assertThatThrownBy(() -> startWithPool(NO_SWEEP_AFTER_THE_FIRST, missing))
                .hasMessageContaining("volume pool member 'bulk' is not mounted");
    }

    @Test
    void aTopicsDirectoriesGoFromEveryMemberWithItAndTheSweepTakesAMembersOrphans() throws IOException {
        Files.createDirectories(vols.resolve("bulk/ghost/0")); // a removal interrupted after the data volume's part
        Files.write(vols.resolve("bulk/ghost/0/00000001-00000000000000000000.log"), new byte[] {9});
        startWithPool(Duration.ofMillis(200), member("bulk", false, false, Map.of()));
        create("orders", 2, storage(List.of("bulk"), null));
        create("payments", 1, storage(List.of("bulk"), null));
        awaitReady("orders", 1);
        awaitReady("payments", 1);
        await().atMost(Duration.ofSeconds(20)).until(() -> !Files.exists(vols.resolve("bulk/ghost")));

        topic("orders").delete();

        await().atMost(Duration.ofSeconds(20)).until(() -> !Files.exists(vols.resolve("bulk/orders"))
                && !Files.exists(data.resolve("orders")));
        assertThat(memberPartitions("bulk", "payments")).containsExactly("0");
        assertThat(placements("payments", 1)).containsExactly("bulk");
    }

    private void startWithPool(Duration sweepInterval, VolumePoolSetting.Member... members) {
        world.startOperator(sweepInterval, List.of(members));
    }

    /** A member, mounted: its directory exists. */
    private VolumePoolSetting.Member member(String name, boolean defaultEligible, boolean cordoned,
                                            Map<String, String> labels) throws IOException {
        return new VolumePoolSetting.Member(name, Files.createDirectories(vols.resolve(name)).toString(),
                defaultEligible, labels, cordoned);
    }

    private static TopicStorage storage(List<String> volumes, Map<String, String> selector) {
        TopicStorage storage = new TopicStorage();
        storage.setVolumes(volumes);
        storage.setVolumeSelector(selector);
        return storage;
    }

    private void create(String name, int partitions, TopicStorage storage) {
        KafkaTopic topic = resource(name, partitions, config -> { });
        topic.getSpec().setStorage(storage);
        client.resource(topic).create();
    }

    /** The member each partition's creation record ({@code log-dir.json}) names, in partition order. */
    private List<String> placements(String topic, int partitions) throws IOException {
        List<String> members = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            members.add(json(data.resolve(topic).resolve(Integer.toString(p)).resolve("log-dir.json")).get("logDir")
                    .asText());
        }
        return members;
    }

    private List<String> memberPartitions(String member, String topic) throws IOException {
        try (Stream<Path> dirs = Files.list(vols.resolve(member).resolve(topic))) {
            return dirs.filter(Files::isDirectory).map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    private void start(Duration sweepInterval) {
        world.startOperator(sweepInterval);
    }

    private void create(String name, int partitions, Consumer<KafkaTopicConfig> config) {
        client.resource(resource(name, partitions, config)).create();
    }

    private static KafkaTopic resource(String name, int partitions, Consumer<KafkaTopicConfig> edit) {
        KafkaTopic topic = new KafkaTopic();
        topic.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(NAMESPACE).build());
        KafkaTopicSpec spec = new KafkaTopicSpec();
        spec.setPartitions(partitions);
        KafkaTopicConfig config = new KafkaTopicConfig();
        edit.accept(config);
        spec.setConfig(config);
        topic.setSpec(spec);
        return topic;
    }

    private Resource<KafkaTopic> topic(String name) {
        return client.resources(KafkaTopic.class).inNamespace(NAMESPACE).withName(name);
    }

    /** The resource once its Ready condition describes {@code generation} and is True. */
    private KafkaTopic awaitReady(String name, long generation) {
        assertThat(awaitReadyCondition(name, generation).getStatus()).as("Ready of " + name).isEqualTo("True");
        return topic(name).get();
    }

    private Condition awaitReadyCondition(String name, long generation) {
        return await().atMost(Duration.ofSeconds(20)).until(() -> {
            KafkaTopic topic = topic(name).get();
            return topic == null || topic.getStatus() == null ? null : ReadyCondition.of(topic.getStatus().getConditions());
        }, condition -> condition != null && Long.valueOf(generation).equals(condition.getObservedGeneration()));
    }

    private Stream<String> partitionDirectoryStream(String topic) throws IOException {
        return Files.list(data.resolve(topic)).filter(Files::isDirectory).map(p -> p.getFileName().toString());
    }

    private List<String> partitionDirectories(String topic) throws IOException {
        try (Stream<String> names = partitionDirectoryStream(topic)) {
            return names.sorted().toList();
        }
    }

    private static JsonNode json(Path file) throws IOException {
        return JSON.readTree(Files.readString(file, StandardCharsets.UTF_8));
    }

    /** Every file and directory under the volume's root, with the files' contents. */
    private Map<String, String> volume() throws IOException {
        return snapshot(data);
    }

    private Map<String, String> volume(String topic) throws IOException {
        return snapshot(data.resolve(topic));
    }

    private static Map<String, String> snapshot(Path root) throws IOException {
        Map<String, String> entries = new TreeMap<>();
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.filter(p -> !p.equals(root)).toList()) {
                String name = root.relativize(path).toString();
                if (Files.isDirectory(path)) {
                    entries.put(name + "/", "");
                } else {
                    entries.put(name, Files.readString(path, StandardCharsets.ISO_8859_1));
                }
            }
        }
        return entries;
    }
}
