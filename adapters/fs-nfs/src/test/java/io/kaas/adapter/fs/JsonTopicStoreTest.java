package io.kaas.adapter.fs;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.domain.topic.Topic;
import io.kaas.domain.topic.TopicIds;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JsonTopicStoreTest {
    private static final JsonFiles JSON = new JsonFiles(new NioFilesystem(), new JacksonCodec());

    private static final Topic ORDERS = new Topic("orders", UUID.fromString("5b3a8f0e-1c2d-4e5f-8a9b-0c1d2e3f4a5b"), 3,
            Map.of("retention.ms", "60000", "cleanup.policy", "compact"));
    private static final Topic PLAIN = new Topic("plain", new UUID(7L, 8L), 1, Map.of());

    @TempDir
    Path root;
    private DataLayout layout;
    private JsonTopicStore store;

    @BeforeEach
    void setUp() {
        layout = new DataLayout(root);
        store = new JsonTopicStore(layout, JSON);
    }

    @Test
    void anEmptyOrMissingRootHoldsNoTopics() {
        assertThat(store.loadAll()).isEmpty();
        assertThat(new JsonTopicStore(new DataLayout(root.resolve("absent")), JSON).loadAll()).isEmpty();
    }

    @Test
    void savedTopicsLoadBackWithIdPartitionsAndConfigs() {
        store.save(ORDERS);
        store.save(PLAIN);

        assertThat(new JsonTopicStore(layout, JSON).loadAll()).containsExactlyInAnyOrder(ORDERS, PLAIN);
    }

    @Test
    void theFilesFollowTheOnDiskLayout() throws IOException {
        store.save(ORDERS);

        assertThat(root.resolve("orders/.config.json")).exists();
        assertThat(Files.readString(root.resolve("orders/.topic-id.json")))
                .contains(TopicIds.toBase64(ORDERS.id()));
    }

    @Test
    void savingAgainReplacesTheDefinition() {
        store.save(ORDERS);
        Topic grown = new Topic("orders", ORDERS.id(), 6, Map.of());

        store.save(grown);

        assertThat(store.loadAll()).containsExactly(grown);
    }

    @Test
    void aTopicDirectoryWithoutItsIdIsHalfCreatedAndIsRemoved() throws IOException {
        store.save(PLAIN);
        store.save(ORDERS);
        Files.delete(layout.topicId("orders"));
        Files.createDirectories(root.resolve("orders/0"));

        assertThat(store.loadAll()).containsExactly(PLAIN);
        assertThat(root.resolve("orders")).doesNotExist();
    }

    @Test
    void onAClustersSharedVolumeAnUnfinishedTopicIsSkippedNotRemoved() throws IOException {
        store.save(PLAIN);
        store.save(ORDERS);
        Files.delete(layout.topicId("orders")); // another broker between its two writes

        assertThat(JsonTopicStore.shared(layout, JSON).loadAll()).containsExactly(PLAIN);
        assertThat(root.resolve("orders/.config.json")).exists();
    }

    @Test
    void aTopicDirectoryWithoutItsConfigIsRemovedToo() throws IOException {
        store.save(ORDERS);
        Files.delete(layout.topicConfig("orders"));

        assertThat(store.loadAll()).isEmpty();
        assertThat(root.resolve("orders")).doesNotExist();
    }

    @Test
    void theClusterDirectoryIsNeitherATopicNorRemoved() throws IOException {
        Path producerIds = layout.producerIdBlock(0);
        Files.createDirectories(producerIds.getParent());
        Files.writeString(producerIds, "{\"blockEnd\":1000}");

        assertThat(store.loadAll()).isEmpty();
        assertThat(producerIds).exists();
    }

    @Test
    void directoriesThatCannotBeTopicsAreLeftAlone() throws IOException {
        // ext4 volume roots carry lost+found (root-owned): removing it would fail the broker's start.
        Path lostAndFound = Files.createDirectory(root.resolve("lost+found"));
        Files.writeString(lostAndFound.resolve("#1234"), "orphan");

        assertThat(store.loadAll()).isEmpty();
        assertThat(lostAndFound.resolve("#1234")).exists();
    }

    @Test
    void plainFilesInTheRootAreIgnored() throws IOException {
        Files.writeString(root.resolve("README"), "not a topic");
        store.save(PLAIN);

        assertThat(store.loadAll()).containsExactly(PLAIN);
        assertThat(root.resolve("README")).exists();
    }

    @Test
    void deleteRemovesTheTopicDirectory() throws IOException {
        store.save(ORDERS);
        store.save(PLAIN);
        Files.createDirectories(root.resolve("orders/2"));
        Files.writeString(root.resolve("orders/2/00000000-00000000000000000000.log"), "data");

        store.delete(ORDERS);

        assertThat(root.resolve("orders")).doesNotExist();
        assertThat(store.loadAll()).containsExactly(PLAIN);
    }
}
