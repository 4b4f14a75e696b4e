package io.kaas.adapter.fs;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AtomicFilesTest {
    @TempDir
    Path dir;

    @Test
    void writeCreatesParentsReplacesContentAndLeavesNoTempFile() throws IOException {
        Path file = dir.resolve("__cluster").resolve("producer_ids").resolve("kaas-1.json");
        AtomicFiles.write(file, "one".getBytes(UTF_8));
        AtomicFiles.write(file, "two".getBytes(UTF_8));

        assertThat(Files.readString(file)).isEqualTo("two");
        try (Stream<Path> entries = Files.list(file.getParent())) {
            assertThat(entries.map(p -> p.getFileName().toString())).containsExactly("kaas-1.json");
        }
    }

    @Test
    void deleteAndDeleteTreeTolerateMissingPaths() throws IOException {
        Path topic = dir.resolve("orders");
        AtomicFiles.write(topic.resolve("0").resolve("manifest.json"), "{}".getBytes(UTF_8));

        AtomicFiles.delete(topic.resolve("missing.json"));
        AtomicFiles.deleteTree(topic);
        AtomicFiles.deleteTree(topic);

        assertThat(Files.exists(topic)).isFalse();
    }

    @Test
    void jsonStoresRoundTripThroughTheSharedPrimitives() {
        DataLayout layout = new DataLayout(dir);
        JsonProducerIdBlockStore store = new JsonProducerIdBlockStore(layout, 7);
        assertThat(store.load()).isZero();

        store.persist(5000);

        assertThat(new JsonProducerIdBlockStore(layout, 7).load()).isEqualTo(5000);
        assertThat(ClusterIdFile.loadOrCreate(layout, () -> "abc")).isEqualTo("abc");
        assertThat(ClusterIdFile.loadOrCreate(layout, () -> "other")).isEqualTo("abc");
    }
}
