package io.kaas.adapter.fs.sim;

import static io.kaas.adapter.fs.sim.SimFiles.bytes;
import static io.kaas.adapter.fs.sim.SimFiles.content;
import static io.kaas.adapter.fs.sim.SimFiles.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.application.port.out.Filesystem.FileHandle;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What one process sees of the simulated volume, without crashes or faults. */
class SimulatedFilesystemTest {
    private static final Path DATA = Path.of("/kaas-sim-test/data");
    private final AtomicLong clock = new AtomicLong(1_000);
    private final SimulatedFilesystem fs = new SimulatedFilesystem(42, SimOptions.reliable(), clock::get);

    @BeforeEach
    void createDataDirectory() throws IOException {
        fs.createDirectories(DATA);
    }

    @Test
    void readsSeeCurrentContentAndEndOfFile() throws IOException {
        try (FileHandle handle = fs.open(DATA.resolve("f"), true)) {
            write(handle, "hello world", 0);
            write(handle, "W", 6);

            ByteBuffer dst = ByteBuffer.allocate(100);
            assertThat(handle.read(dst, 6)).isEqualTo(5);
            assertThat(new String(dst.array(), 0, 5)).isEqualTo("World");
            assertThat(handle.read(ByteBuffer.allocate(1), 11)).isEqualTo(-1);
            assertThat(handle.read(ByteBuffer.allocate(0), 0)).isZero();
            assertThat(handle.size()).isEqualTo(11);
        }
        assertThat(content(fs, DATA.resolve("f"))).isEqualTo("hello World");
    }

    @Test
    void writeDrainsTheBufferAndAWriteBeyondTheEndLeavesAHoleOfZeros() throws IOException {
        ByteBuffer src = ByteBuffer.wrap(bytes("xy"));
        try (FileHandle handle = fs.open(DATA.resolve("f"), true)) {
            handle.write(src, 3);
        }
        assertThat(src.hasRemaining()).isFalse();
        assertThat(fs.readAll(DATA.resolve("f")).orElseThrow()).containsExactly(0, 0, 0, 'x', 'y');
        assertThat(fs.bytesWritten()).isEqualTo(2);
    }

    @Test
    void truncateShrinksButNeverGrows() throws IOException {
        try (FileHandle handle = fs.open(DATA.resolve("f"), true)) {
            write(handle, "0123456789", 0);
            handle.truncate(4);
            handle.truncate(100);
            assertThat(handle.size()).isEqualTo(4);
            write(handle, "Z", 6);
        }
        assertThat(fs.readAll(DATA.resolve("f")).orElseThrow()).containsExactly('0', '1', '2', '3', 0, 0, 'Z');
    }

    @Test
    void openWithoutCreateOrWithoutAParentFails() {
        assertThatThrownBy(() -> fs.open(DATA.resolve("missing"), false)).isInstanceOf(NoSuchFileException.class);
        assertThatThrownBy(() -> fs.open(DATA.resolve("no-dir").resolve("f"), true)).isInstanceOf(NoSuchFileException.class);
        assertThatThrownBy(() -> fs.open(DATA, true)).isInstanceOf(IOException.class);
    }

    @Test
    void createExclusiveHasOneWinner() throws IOException {
        assertThat(fs.createExclusive(DATA.resolve("lock"))).isTrue();
        assertThat(fs.createExclusive(DATA.resolve("lock"))).isFalse();
        assertThat(fs.readAll(DATA.resolve("lock")).orElseThrow()).isEmpty();
    }

    @Test
    void listIsSortedAndEmptyForAMissingDirectory() throws IOException {
        fs.createExclusive(DATA.resolve("b"));
        fs.createExclusive(DATA.resolve("a"));
        fs.createDirectories(DATA.resolve("c"));

        assertThat(fs.list(DATA)).containsExactly("a", "b", "c");
        assertThat(fs.list(DATA.resolve("missing"))).isEmpty();
        assertThatThrownBy(() -> fs.list(DATA.resolve("a"))).isInstanceOf(NotDirectoryException.class);
    }

    @Test
    void createDirectoriesIsIdempotentAndRefusesAFile() throws IOException {
        fs.createDirectories(DATA.resolve("t").resolve("0"));
        fs.createDirectories(DATA.resolve("t").resolve("0"));
        fs.createExclusive(DATA.resolve("file"));

        assertThat(fs.list(DATA.resolve("t"))).containsExactly("0");
        assertThatThrownBy(() -> fs.createDirectories(DATA.resolve("file"))).isInstanceOf(FileAlreadyExistsException.class);
    }

    @Test
    void renameReplacesTheTarget() throws IOException {
        writeNew("manifest.json", "old");
        writeNew(".manifest.json.tmp", "new");

        fs.rename(DATA.resolve(".manifest.json.tmp"), DATA.resolve("manifest.json"));

        assertThat(content(fs, DATA.resolve("manifest.json"))).isEqualTo("new");
        assertThat(fs.exists(DATA.resolve(".manifest.json.tmp"))).isFalse();
        assertThatThrownBy(() -> fs.rename(DATA.resolve("gone"), DATA.resolve("x"))).isInstanceOf(NoSuchFileException.class);
    }

    @Test
    void deleteOfAMissingFileIsNotAnErrorButOfAFullDirectoryIs() throws IOException {
        fs.delete(DATA.resolve("missing"));
        fs.delete(DATA.resolve("no-dir").resolve("missing"));
        fs.createDirectories(DATA.resolve("t"));
        fs.createExclusive(DATA.resolve("t").resolve("f"));

        assertThatThrownBy(() -> fs.delete(DATA.resolve("t"))).isInstanceOf(DirectoryNotEmptyException.class);
        fs.delete(DATA.resolve("t").resolve("f"));
        fs.delete(DATA.resolve("t"));
        assertThat(fs.exists(DATA.resolve("t"))).isFalse();
    }

    @Test
    void aDeletedFileStaysReadableThroughItsOpenHandles() throws IOException {
        writeNew("segment.log", "records");
        try (FileHandle handle = fs.open(DATA.resolve("segment.log"), false)) {
            fs.delete(DATA.resolve("segment.log"));

            assertThat(fs.exists(DATA.resolve("segment.log"))).isFalse();
            ByteBuffer dst = ByteBuffer.allocate(7);
            assertThat(handle.read(dst, 0)).isEqualTo(7);
            assertThat(dst.array()).isEqualTo(bytes("records"));
        }
    }

    @Test
    void aClosedHandleIsUnusable() throws IOException {
        FileHandle handle = fs.open(DATA.resolve("f"), true);
        handle.close();
        handle.close();

        assertThatThrownBy(() -> write(handle, "x", 0)).isInstanceOf(ClosedChannelException.class);
        assertThatThrownBy(handle::size).isInstanceOf(ClosedChannelException.class);
    }

    @Test
    void writeAtomicallyLeavesNoTempFile() throws IOException {
        fs.writeAtomically(DATA.resolve("manifest.json"), bytes("v1"));
        fs.writeAtomically(DATA.resolve("manifest.json"), bytes("v2"));

        assertThat(content(fs, DATA.resolve("manifest.json"))).isEqualTo("v2");
        assertThat(fs.list(DATA)).containsExactly("manifest.json");
        assertThat(fs.fsyncCount()).isEqualTo(2);
    }

    @Test
    void pathsAreNormalized() throws IOException {
        writeNew("a", "content");

        assertThat(content(fs, Path.of("/kaas-sim-test/./data/x/../a"))).isEqualTo("content");
        assertThat(fs.list(Path.of("/kaas-sim-test/data/"))).containsExactly("a");
    }

    @Test
    void modificationTimesComeFromTheGivenClock() throws IOException {
        writeNew("f", "one");
        assertThat(fs.lastModifiedMs(DATA.resolve("f"))).isEqualTo(1_000);

        clock.set(5_000);
        try (FileHandle handle = fs.open(DATA.resolve("f"), false)) {
            write(handle, "two", 3);
        }
        assertThat(fs.lastModifiedMs(DATA.resolve("f"))).isEqualTo(5_000);
        assertThatThrownBy(() -> fs.lastModifiedMs(DATA.resolve("missing"))).isInstanceOf(NoSuchFileException.class);
    }

    @Test
    void theRealDiskIsNeverTouched() throws IOException {
        writeNew("f", "x");
        assertThat(Files.exists(Path.of("/kaas-sim-test"))).isFalse();
    }

    private void writeNew(String name, String text) throws IOException {
        try (FileHandle handle = fs.open(DATA.resolve(name), true)) {
            write(handle, text, 0);
        }
    }
}
