package io.kaas.adapter.fs;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.application.port.out.Filesystem.FileHandle;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NioFilesystemTest {
    private final NioFilesystem fs = new NioFilesystem();

    @TempDir
    Path dir;

    @Test
    void positionalWritesAndReadsRoundTrip() throws IOException {
        Path file = dir.resolve("00000001-00000000000000000000.log");
        try (FileHandle handle = fs.open(file, true)) {
            handle.write(ByteBuffer.wrap(bytes("hello ")), 0);
            handle.write(ByteBuffer.wrap(bytes("world")), 6);
            handle.write(ByteBuffer.wrap(bytes("W")), 6);
            handle.force();

            assertThat(handle.size()).isEqualTo(11);
            ByteBuffer dst = ByteBuffer.allocate(5);
            assertThat(handle.read(dst, 6)).isEqualTo(5);
            assertThat(new String(dst.array(), UTF_8)).isEqualTo("World");
            assertThat(handle.read(ByteBuffer.allocate(4), 11)).isEqualTo(-1);
        }
        assertThat(fs.readAll(file)).hasValueSatisfying(content -> assertThat(new String(content, UTF_8)).isEqualTo("hello World"));
    }

    @Test
    void writeDrainsTheWholeBuffer() throws IOException {
        byte[] big = new byte[3 * 1024 * 1024 + 17];
        for (int i = 0; i < big.length; i++) {
            big[i] = (byte) i;
        }
        ByteBuffer src = ByteBuffer.wrap(big);
        try (FileHandle handle = fs.open(dir.resolve("big"), true)) {
            handle.write(src, 5);
            assertThat(src.hasRemaining()).isFalse();
            assertThat(handle.size()).isEqualTo(big.length + 5L);
        }
    }

    @Test
    void truncateShrinksTheFile() throws IOException {
        try (FileHandle handle = fs.open(dir.resolve("f"), true)) {
            handle.write(ByteBuffer.wrap(bytes("0123456789")), 0);
            handle.truncate(4);
            assertThat(handle.size()).isEqualTo(4);
        }
        assertThat(fs.readAll(dir.resolve("f")).orElseThrow()).isEqualTo(bytes("0123"));
    }

    @Test
    void openWithoutCreateOfAMissingFileFails() {
        assertThatThrownBy(() -> fs.open(dir.resolve("missing"), false)).isInstanceOf(NoSuchFileException.class);
    }

    @Test
    void renameReplacesTheTargetAtomically() throws IOException {
        Files.write(dir.resolve("manifest.json"), bytes("old"));
        Files.write(dir.resolve(".manifest.json.tmp"), bytes("new"));

        fs.rename(dir.resolve(".manifest.json.tmp"), dir.resolve("manifest.json"));
        fs.fsyncDirectory(dir);

        assertThat(fs.readAll(dir.resolve("manifest.json")).orElseThrow()).isEqualTo(bytes("new"));
        assertThat(fs.exists(dir.resolve(".manifest.json.tmp"))).isFalse();
    }

    @Test
    void createExclusiveHasOneWinner() throws IOException {
        Path marker = dir.resolve("lock");
        assertThat(fs.createExclusive(marker)).isTrue();
        assertThat(fs.createExclusive(marker)).isFalse();
        assertThat(fs.readAll(marker).orElseThrow()).isEmpty();
    }

    @Test
    void listIsSortedAndEmptyForAMissingDirectory() throws IOException {
        fs.createExclusive(dir.resolve("b"));
        fs.createExclusive(dir.resolve("a"));
        fs.createDirectories(dir.resolve("c"));

        assertThat(fs.list(dir)).containsExactly("a", "b", "c");
        assertThat(fs.list(dir.resolve("missing"))).isEmpty();
    }

    @Test
    void createDirectoriesCreatesMissingParentsAndToleratesExisting() throws IOException {
        Path deep = dir.resolve("topic").resolve("0");
        fs.createDirectories(deep);
        fs.createDirectories(deep);

        assertThat(Files.isDirectory(deep)).isTrue();
    }

    @Test
    void createDirectoriesOverAFileFails() throws IOException {
        fs.createExclusive(dir.resolve("taken"));
        assertThatThrownBy(() -> fs.createDirectories(dir.resolve("taken"))).isInstanceOf(IOException.class);
    }

    @Test
    void deletingAMissingFileIsNotAnError() throws IOException {
        fs.delete(dir.resolve("missing"));
        fs.createExclusive(dir.resolve("present"));
        fs.delete(dir.resolve("present"));

        assertThat(fs.exists(dir.resolve("present"))).isFalse();
        assertThat(fs.readAll(dir.resolve("present"))).isEmpty();
    }

    @Test
    void writeAtomicallyReplacesContentAndLeavesNoTempFile() throws IOException {
        Path file = dir.resolve("recovery-checkpoint.json");
        fs.writeAtomically(file, bytes("{\"v\":1}"));
        fs.writeAtomically(file, bytes("{\"v\":2}"));

        assertThat(fs.readAll(file).orElseThrow()).isEqualTo(bytes("{\"v\":2}"));
        assertThat(fs.list(dir)).containsExactly("recovery-checkpoint.json");
    }

    @Test
    void lastModifiedIsTheFilesMtime() throws IOException {
        Path file = dir.resolve("f");
        fs.createExclusive(file);
        assertThat(fs.lastModifiedMs(file)).isEqualTo(Files.getLastModifiedTime(file).toMillis());
        assertThatThrownBy(() -> fs.lastModifiedMs(dir.resolve("missing"))).isInstanceOf(NoSuchFileException.class);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(UTF_8);
    }
}
