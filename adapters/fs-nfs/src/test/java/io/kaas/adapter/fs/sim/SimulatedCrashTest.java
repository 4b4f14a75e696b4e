package io.kaas.adapter.fs.sim;

import static io.kaas.adapter.fs.sim.SimFiles.bytes;
import static io.kaas.adapter.fs.sim.SimFiles.content;
import static io.kaas.adapter.fs.sim.SimFiles.write;
import static io.kaas.adapter.fs.sim.SimFiles.writeDurably;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.application.port.out.Filesystem.FileHandle;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** What survives {@code crash()}: exactly what was fsynced, plus torn tails when enabled. */
class SimulatedCrashTest {
    private static final Path DATA = Path.of("/data/orders/0");
    private static final Path SEGMENT = DATA.resolve("00000001-00000000000000000000.log");

    private final SimulatedFilesystem fs = new SimulatedFilesystem(7);

    @Test
    void forcedBytesSurviveAndUnforcedBytesAreLost() throws IOException {
        fs.createDirectories(DATA);
        try (FileHandle handle = fs.open(SEGMENT, true)) {
            write(handle, "batch-1;", 0);
            handle.force();
            fs.fsyncDirectory(DATA);
            write(handle, "batch-2;", 8);
            write(handle, "BATCH", 0); // an overwrite of durable bytes, never forced

            fs.crash();
        }
        assertThat(content(fs, SEGMENT)).isEqualTo("batch-1;");
    }

    @Test
    void anUnforcedTruncateIsUndone() throws IOException {
        fs.createDirectories(DATA);
        writeDurably(fs, SEGMENT, "0123456789");
        try (FileHandle handle = fs.open(SEGMENT, false)) {
            handle.truncate(3);
            write(handle, "abc", 3);
        }

        fs.crash();

        assertThat(content(fs, SEGMENT)).isEqualTo("0123456789");
    }

    @Test
    void aCreatedFileDisappearsWithoutADirectoryFsyncEvenIfItsDataWasForced() throws IOException {
        fs.createDirectories(DATA);
        try (FileHandle handle = fs.open(SEGMENT, true)) {
            write(handle, "batch-1;", 0);
            handle.force();
        }

        fs.crash();

        assertThat(fs.exists(SEGMENT)).isFalse();
        assertThat(fs.list(DATA)).isEmpty();
    }

    @Test
    void createdDirectoriesAreDurable() throws IOException {
        fs.createDirectories(DATA);

        fs.crash();

        assertThat(fs.list(DATA.getParent())).containsExactly("0");
        assertThat(fs.directoryFsyncCount()).isEqualTo(3); // the parents of /data, /data/orders, /data/orders/0
    }

    @Test
    void aRenameIsDurableOnlyAfterTheDirectoryFsync() throws IOException {
        Path manifest = DATA.resolve("manifest.json");
        Path temp = DATA.resolve(".manifest.json.tmp");
        fs.createDirectories(DATA);
        writeDurably(fs, manifest, "v1");
        writeDurably(fs, temp, "v2");

        fs.rename(temp, manifest);
        fs.crash();

        assertThat(content(fs, manifest)).isEqualTo("v1");
        assertThat(content(fs, temp)).isEqualTo("v2");

        fs.rename(temp, manifest);
        fs.fsyncDirectory(DATA);
        fs.crash();

        assertThat(content(fs, manifest)).isEqualTo("v2");
        assertThat(fs.exists(temp)).isFalse();
    }

    @Test
    void writeAtomicallyIsDurableAtOnce() throws IOException {
        fs.createDirectories(DATA);
        fs.writeAtomically(DATA.resolve("manifest.json"), bytes("v1"));

        fs.crash();

        assertThat(content(fs, DATA.resolve("manifest.json"))).isEqualTo("v1");
        assertThat(fs.list(DATA)).containsExactly("manifest.json");
    }

    @Test
    void aDeleteIsUndoneWithoutADirectoryFsync() throws IOException {
        fs.createDirectories(DATA);
        writeDurably(fs, SEGMENT, "records");

        fs.delete(SEGMENT);
        fs.crash();

        assertThat(content(fs, SEGMENT)).isEqualTo("records");

        fs.delete(SEGMENT);
        fs.fsyncDirectory(DATA);
        fs.crash();

        assertThat(fs.exists(SEGMENT)).isFalse();
    }

    @Test
    void handlesGoStaleAndTheFilesystemStaysUsable() throws IOException {
        fs.createDirectories(DATA);
        writeDurably(fs, SEGMENT, "records");
        FileHandle stale = fs.open(SEGMENT, false);

        fs.crash();

        assertThatThrownBy(() -> write(stale, "x", 0)).hasMessage("stale handle after crash");
        assertThatThrownBy(() -> stale.read(ByteBuffer.allocate(1), 0)).hasMessage("stale handle after crash");
        assertThatThrownBy(stale::force).hasMessage("stale handle after crash");
        assertThatThrownBy(stale::size).hasMessage("stale handle after crash");
        stale.close();
        try (FileHandle fresh = fs.open(SEGMENT, false)) {
            write(fresh, "!", 7);
            fresh.force();
        }
        assertThat(content(fs, SEGMENT)).isEqualTo("records!");
    }

    @Test
    void tornWritesLeaveAPrefixOfTheUnforcedTail() throws IOException {
        byte[] tail = new byte[3 * SimFile.PAGE_SIZE];
        Arrays.fill(tail, (byte) 't');
        boolean sawPartialPrefix = false;
        for (long seed = 0; seed < 20; seed++) {
            SimulatedFilesystem torn = new SimulatedFilesystem(seed, SimOptions.reliable().withTornWrites(true));
            byte[] after = crashWithUnforcedTail(torn, tail);

            assertThat(after.length).isBetween(7, 7 + tail.length);
            assertThat(new String(after, 0, 7)).isEqualTo("durable");
            assertThat(Arrays.copyOfRange(after, 7, after.length)).isEqualTo(Arrays.copyOf(tail, after.length - 7));
            sawPartialPrefix |= after.length > 7 && after.length < 7 + tail.length;
        }
        assertThat(sawPartialPrefix).isTrue();
    }

    @Test
    void aGarbledTornPageNeverDamagesDurableBytesOrEarlierPages() throws IOException {
        byte[] tail = new byte[3 * SimFile.PAGE_SIZE];
        Arrays.fill(tail, (byte) 't');
        boolean sawGarbage = false;
        for (long seed = 0; seed < 20; seed++) {
            SimulatedFilesystem torn = new SimulatedFilesystem(seed, SimOptions.reliable().withGarbledTornPage(true));
            byte[] after = crashWithUnforcedTail(torn, tail);

            assertThat(new String(after, 0, 7)).isEqualTo("durable");
            int lastPage = Math.max(7, (after.length - 1) / SimFile.PAGE_SIZE * SimFile.PAGE_SIZE);
            assertThat(Arrays.copyOfRange(after, 7, lastPage)).isEqualTo(Arrays.copyOf(tail, lastPage - 7));
            for (int i = lastPage; i < after.length; i++) {
                sawGarbage |= after[i] != 't';
            }
        }
        assertThat(sawGarbage).isTrue();
    }

    @Test
    void withoutTornWritesNothingOfTheTailSurvives() throws IOException {
        byte[] after = crashWithUnforcedTail(fs, new byte[10_000]);

        assertThat(after).isEqualTo(bytes("durable"));
    }

    private static byte[] crashWithUnforcedTail(SimulatedFilesystem fs, byte[] tail) throws IOException {
        fs.createDirectories(DATA);
        writeDurably(fs, SEGMENT, "durable");
        try (FileHandle handle = fs.open(SEGMENT, false)) {
            handle.write(ByteBuffer.wrap(tail), 7);
        }
        fs.crash();
        return fs.readAll(SEGMENT).orElseThrow();
    }
}
