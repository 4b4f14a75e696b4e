package io.kaas.adapter.fs;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.application.port.out.OffsetStore.StoredGroup;
import io.kaas.domain.group.CommittedOffset;
import io.kaas.domain.group.GroupSnapshot;
import io.kaas.domain.topic.TopicPartition;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JsonOffsetStoreTest {
    private static final JsonFiles JSON = new JsonFiles(new NioFilesystem(), new JacksonCodec());

    private static final UUID TOPIC_ID = UUID.fromString("6a2a1a3e-1111-4c1d-9f55-0123456789ab");

    @TempDir
    Path data;

    private JsonOffsetStore store() {
        return new JsonOffsetStore(new DataLayout(data), JSON);
    }

    private static StoredGroup group(String id) {
        return new StoredGroup(id, "consumer", Map.of(
                new TopicPartition("orders", 0), new CommittedOffset(42, 3, "meta data ✓", 1_700_000_000_000L, TOPIC_ID),
                new TopicPartition("orders", 1), new CommittedOffset(7, -1, "", 1_700_000_000_001L, 1_700_000_086_401L,
                        null)));
    }

    @Test
    void savesOneReadableFilePerGroupAndReadsItBack() throws IOException {
        store().save(group("payments"));

        Path file = data.resolve("__cluster/__consumer_offsets/payments.json");
        assertThat(file).exists();
        assertThat(Files.readString(file, StandardCharsets.UTF_8)).contains("\"groupId\" : \"payments\"", "\"offset\" : 42");
        assertThat(store().load("payments")).contains(group("payments"));
        assertThat(store().load("other")).isEmpty();
    }

    @Test
    void anyGroupIdGetsASafeReversibleFileName() {
        List<String> ids = List.of("", "a/b", "..", ".", ".hidden", "%", "%41", "~", "with space", "ünïcødé", "UPPER-lower_1",
                "x".repeat(1_000), "/".repeat(300));
        JsonOffsetStore store = store();
        ids.forEach(id -> store.save(group(id)));

        assertThat(store.groupIds()).containsExactlyInAnyOrderElementsOf(ids);
        ids.forEach(id -> assertThat(store.load(id)).as(id).contains(group(id)));
        try (var files = Files.list(data.resolve("__cluster/__consumer_offsets"))) {
            assertThat(files.map(p -> p.getFileName().toString())).allSatisfy(name -> {
                assertThat(name).doesNotStartWith(".").doesNotContain("/").endsWith(".json");
                assertThat(name.getBytes(StandardCharsets.UTF_8).length).isLessThan(255);
            });
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void deleteRemovesTheFileAndTempFilesAreNotGroups() throws IOException {
        JsonOffsetStore store = store();
        store.save(group("a"));
        store.save(group("b"));
        Files.writeString(data.resolve("__cluster/__consumer_offsets/.a.json.tmp-123"), "{");

        store.delete("a");
        store.delete("never-existed");

        assertThat(store.groupIds()).containsExactly("b");
        assertThat(store.load("a")).isEmpty();
    }

    @Test
    void offsetsStagedByTransactionsAreKeptPerProducer() {
        Map<TopicPartition, CommittedOffset> staged = Map.of(new TopicPartition("orders", 0),
                new CommittedOffset(99, -1, "", 1_700_000_000_002L, TOPIC_ID));
        StoredGroup withPending = new StoredGroup("eos", "consumer", group("eos").offsets(), Map.of(4_398_046_511_104L, staged),
                null);

        store().save(withPending);

        assertThat(store().load("eos")).contains(withPending);
    }

    @Test
    void theStoredGenerationRoundTripsWithItsBytes() {
        GroupSnapshot generation = new GroupSnapshot(7, "consumer", "range", "m-1", List.of(
                new GroupSnapshot.Member("m-1", null, "client-1", "/127.0.0.1", 30_000, 10_000, new byte[] {0, 1, 2},
                        new byte[] {9, 8}),
                new GroupSnapshot.Member("m-2", "static-2", "client-2", "/127.0.0.2", 30_000, 45_000, new byte[0],
                        new byte[] {7})));
        store().save(new StoredGroup("steady", "consumer", Map.of(), Map.of(), generation));

        GroupSnapshot read = store().load("steady").orElseThrow().membership();

        assertThat(read).usingRecursiveComparison().isEqualTo(generation);
        assertThat(read.members().get(0).subscription()).containsExactly(0, 1, 2);
        assertThat(read.members().get(1).groupInstanceId()).isEqualTo("static-2");
        assertThat(group("no-generation").membership()).isNull();
        store().save(group("no-generation"));
        assertThat(store().load("no-generation").orElseThrow().membership()).isNull();
    }

    @Test
    void aFileWrittenBeforeTransactionsReadsWithNothingStaged() throws IOException {
        Path file = data.resolve("__cluster/__consumer_offsets/old.json");
        Files.createDirectories(file.getParent());
        Files.writeString(file, "{\"groupId\":\"old\",\"protocolType\":null,\"offsets\":[{\"topic\":\"orders\","
                + "\"partition\":0,\"offset\":5,\"leaderEpoch\":-1,\"metadata\":\"\",\"commitTimestampMs\":1,"
                + "\"topicId\":null}]}");

        StoredGroup old = store().load("old").orElseThrow();

        assertThat(old.offsets()).containsKey(new TopicPartition("orders", 0));
        assertThat(old.pendingTransactional()).isEmpty();
    }

    @Test
    void noDirectoryMeansNoGroups() {
        assertThat(store().groupIds()).isEmpty();
    }
}
