package io.kaas.adapter.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.application.port.out.Filesystem.FileHandle;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The memory mode's volume behaves like the real one wherever the stores and logs can tell. */
class MemoryFilesystemTest {
    private long now = 1_000L;
    private final MemoryFilesystem fs = new MemoryFilesystem(() -> now);
    private final Path dir = Path.of("/data/__cluster");

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void anAtomicWriteReplacesTheContentAndLeavesOnlyTheTarget() throws IOException {
        fs.createDirectories(dir);
        fs.writeAtomically(dir.resolve("a.json"), utf8("a much longer first version"));
        now = 2_000L;
        fs.writeAtomically(dir.resolve("a.json"), utf8("short"));

        assertThat(fs.readAll(dir.resolve("a.json"))).hasValueSatisfying(b -> assertThat(b).isEqualTo(utf8("short")));
        assertThat(fs.list(dir)).containsExactly("a.json");
        assertThat(fs.lastModifiedMs(dir.resolve("a.json"))).isEqualTo(2_000L);
        assertThat(fs.list(Path.of("/data"))).containsExactly("__cluster");
        assertThat(fs.isDirectory(dir)).isTrue();
        assertThat(fs.isDirectory(dir.resolve("a.json"))).isFalse();
    }

    @Test
    void filesNeedTheirDirectoryAndDirectoriesMustBeEmptyToGo() throws IOException {
        assertThatThrownBy(() -> fs.open(dir.resolve("x"), true)).isInstanceOf(NoSuchFileException.class);
        fs.createDirectories(dir);
        assertThat(fs.createExclusive(dir.resolve("lock"))).isTrue();
        assertThat(fs.createExclusive(dir.resolve("lock"))).isFalse();

        assertThatThrownBy(() -> fs.delete(dir)).isInstanceOf(DirectoryNotEmptyException.class);
        fs.deleteTree(Path.of("/data"));

        assertThat(fs.exists(dir)).isFalse();
        assertThat(fs.list(dir)).isEmpty();
        assertThat(fs.readAll(dir.resolve("lock"))).isEmpty();
    }

    @Test
    void positionalIoAndAnOpenHandleOutlivesItsName() throws IOException {
        fs.createDirectories(dir);
        Path log = dir.resolve("00000000-00000000000000000000.log");
        FileHandle handle = fs.open(log, true);
        handle.write(ByteBuffer.wrap(utf8("hello")), 0);
        handle.write(ByteBuffer.wrap(utf8("world")), 5);
        handle.truncate(8);
        fs.delete(log);

        ByteBuffer read = ByteBuffer.allocate(16);
        assertThat(handle.read(read, 0)).isEqualTo(8);
        assertThat(new String(read.array(), 0, 8, StandardCharsets.UTF_8)).isEqualTo("hellowor");
        assertThat(handle.read(ByteBuffer.allocate(1), 8)).isEqualTo(-1);
        assertThat(fs.exists(log)).isFalse();
    }
}
