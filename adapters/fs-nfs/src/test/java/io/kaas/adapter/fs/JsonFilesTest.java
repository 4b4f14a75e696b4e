package io.kaas.adapter.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.adapter.fs.sim.SimulatedFilesystem;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JsonFilesTest {
    private final JsonFiles files = new JsonFiles(new NioFilesystem(), new JacksonCodec());

    @TempDir
    Path dir;

    record Version(int v, String note) {
    }

    private static long entries(Path dir) throws IOException {
        try (Stream<Path> list = Files.list(dir)) {
            return list.count();
        }
    }

    @Test
    void writeCreatesMissingDirectoriesAndTheFile() {
        Path target = dir.resolve("a/b/file.json");

        files.write(target, new Version(1, "first"));

        assertThat(target).content().contains("\"note\" : \"first\"");
        assertThat(files.read(target, Version.class)).contains(new Version(1, "first"));
    }

    @Test
    void writeReplacesTheWholeContentAndLeavesNoTempFiles() throws IOException {
        Path target = dir.resolve("file.json");
        files.write(target, new Version(1, "a much longer first version"));

        files.write(target, new Version(2, "short"));

        assertThat(files.read(target, Version.class)).contains(new Version(2, "short"));
        assertThat(entries(dir)).isOne();
    }

    @Test
    void aFailedWriteLeavesTheOldContentAndNoTempFile() throws IOException {
        Path target = dir.resolve("target");
        Files.createDirectory(target);
        Files.writeString(target.resolve("inside"), "x"); // a non-empty directory cannot be replaced

        assertThatThrownBy(() -> files.write(target, new Version(3, "new"))).isInstanceOf(UncheckedIOException.class);

        assertThat(target.resolve("inside")).hasContent("x");
        assertThat(entries(dir)).isOne();
    }

    @Test
    void deleteRemovesAFileAndToleratesAMissingOne() {
        Path target = dir.resolve("gone.json");
        files.write(target, new Version(1, null));

        files.delete(target);
        files.delete(target);

        assertThat(target).doesNotExist();
        assertThat(files.read(target, Version.class)).isEmpty();
    }

    @Test
    void deleteTreeRemovesNestedDirectoriesAndToleratesAMissingRoot() throws IOException {
        Path root = dir.resolve("topic");
        Files.createDirectories(root.resolve("0/deeper"));
        Files.writeString(root.resolve(".config.json"), "{}");
        Files.writeString(root.resolve("0/deeper/segment.log"), "bytes");
        Path sibling = dir.resolve("sibling");
        Files.writeString(sibling, "stays");

        files.deleteTree(root);
        files.deleteTree(root);

        assertThat(root).doesNotExist();
        assertThat(sibling).hasContent("stays");
    }

    @Test
    void onTheSimulatedVolumeAWriteIsDurableAndADeleteToo() {
        SimulatedFilesystem volume = new SimulatedFilesystem(7);
        JsonFiles simulated = new JsonFiles(volume, new JacksonCodec());
        Path kept = Path.of("/data/__cluster/kept.json");
        Path removed = Path.of("/data/__cluster/removed.json");
        simulated.write(kept, new Version(1, "kept"));
        simulated.write(removed, new Version(1, "removed"));
        simulated.delete(removed);

        volume.crash();

        assertThat(simulated.read(kept, Version.class)).contains(new Version(1, "kept"));
        assertThat(simulated.read(removed, Version.class)).isEmpty();
        assertThat(simulated.list(Path.of("/data/__cluster"))).containsExactly("kept.json");
    }

    @Test
    void aDeleteRetriedAfterItsDirectoryFsyncFailedIsDurable() {
        SimulatedFilesystem volume = new SimulatedFilesystem(11);
        JsonFiles simulated = new JsonFiles(volume, new JacksonCodec());
        Path file = Path.of("/data/__cluster/marker.json");
        simulated.write(file, new Version(1, "queued"));
        volume.failNextFsyncs(1);

        assertThatThrownBy(() -> simulated.delete(file)).isInstanceOf(UncheckedIOException.class);
        simulated.delete(file); // the name is already gone in memory: the retry must still fsync the directory
        volume.crash();

        assertThat(simulated.read(file, Version.class)).as("the acknowledged delete survives the crash").isEmpty();
    }

}
