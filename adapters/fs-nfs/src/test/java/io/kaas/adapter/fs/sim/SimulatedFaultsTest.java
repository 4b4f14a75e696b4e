package io.kaas.adapter.fs.sim;

import static io.kaas.adapter.fs.sim.SimFiles.content;
import static io.kaas.adapter.fs.sim.SimFiles.write;
import static io.kaas.adapter.fs.sim.SimFiles.writeDurably;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.application.port.out.Filesystem.FileHandle;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Failing and hanging fsyncs, and a full disk. */
class SimulatedFaultsTest {
    private static final Path DATA = Path.of("/data/orders/0");
    private static final Path SEGMENT = DATA.resolve("00000001-00000000000000000000.log");

    private final SimulatedFilesystem fs = new SimulatedFilesystem(11);

    @Test
    void anInjectedFsyncFailureMakesNothingDurable() throws IOException {
        fs.createDirectories(DATA);
        writeDurably(fs, SEGMENT, "batch-1;");
        try (FileHandle handle = fs.open(SEGMENT, false)) {
            write(handle, "batch-2;", 8);
            fs.failNextFsyncs(1);

            assertThatThrownBy(handle::force).isInstanceOf(IOException.class).hasMessage("fsync failed");
            fs.crash();
        }
        assertThat(content(fs, SEGMENT)).isEqualTo("batch-1;");
        assertThat(fs.failedFsyncCount()).isEqualTo(1);
    }

    @Test
    void aDirectoryWhoseParentCouldNotBeFsyncedIsCreatedDurablyByTheRetry() throws IOException {
        fs.failNextFsyncs(1);
        assertThatThrownBy(() -> fs.createDirectories(DATA)).hasMessage("fsync failed");
        assertThat(fs.exists(DATA)).isFalse(); // not left behind to be taken for durable

        fs.createDirectories(DATA);
        writeDurably(fs, SEGMENT, "batch-1;");
        fs.crash();

        assertThat(content(fs, SEGMENT)).isEqualTo("batch-1;");
    }

    @Test
    void onlyTheNextNFsyncsFailAndDirectoryFsyncsCount() throws IOException {
        fs.createDirectories(DATA);
        try (FileHandle handle = fs.open(SEGMENT, true)) {
            fs.failNextFsyncs(2);

            assertThatThrownBy(handle::force).hasMessage("fsync failed");
            assertThatThrownBy(() -> fs.fsyncDirectory(DATA)).hasMessage("fsync failed");
            handle.force();
            fs.fsyncDirectory(DATA);
        }
        assertThat(fs.fsyncCount()).isEqualTo(1);
        assertThat(fs.failedFsyncCount()).isEqualTo(2);
    }

    @Test
    void aFailureRateOfOneFailsEveryFsync() throws IOException {
        fs.createDirectories(DATA);
        fs.setOptions(fs.options().withFsyncFailureProbability(1.0));
        try (FileHandle handle = fs.open(SEGMENT, true)) {
            for (int i = 0; i < 5; i++) {
                assertThatThrownBy(handle::force).hasMessage("fsync failed");
            }
        }
        assertThat(fs.fsyncCount()).isZero();
    }

    @Test
    void aWriteBeyondCapacityFailsWithEnospcAndStoresAtMostWhatFits() throws IOException {
        fs.createDirectories(DATA);
        fs.setCapacityBytes(100);
        try (FileHandle handle = fs.open(SEGMENT, true)) {
            handle.write(ByteBuffer.allocate(80), 0);
            ByteBuffer tooBig = ByteBuffer.allocate(50);

            assertThatThrownBy(() -> handle.write(tooBig, 80)).isInstanceOf(IOException.class)
                    .hasMessage("No space left on device");
            assertThat(handle.size()).isBetween(80L, 100L).isEqualTo(80L + tooBig.position());
            assertThat(fs.usedBytes()).isLessThanOrEqualTo(100);
            assertThat(fs.bytesWritten()).isEqualTo(handle.size());

            handle.write(ByteBuffer.allocate(10), 0); // overwrites need no space
            handle.truncate(0);
            handle.write(ByteBuffer.allocate(50), 0); // truncation freed the space
        }
    }

    @Test
    void aDeletedFileUsesSpaceUntilItsLastHandleCloses() throws IOException {
        fs.createDirectories(DATA);
        fs.setCapacityBytes(100);
        FileHandle handle = fs.open(SEGMENT, true);
        handle.write(ByteBuffer.allocate(100), 0);
        fs.delete(SEGMENT);

        assertThat(fs.usedBytes()).isEqualTo(100);
        handle.close();
        assertThat(fs.usedBytes()).isZero();
    }

    @Test
    void aHungFsyncBlocksUntilReleased() throws Exception {
        fs.createDirectories(DATA);
        ExecutorService committer = Executors.newSingleThreadExecutor();
        try (FileHandle handle = fs.open(SEGMENT, true)) {
            write(handle, "batch", 0);
            fs.hangFsyncs();

            Future<?> force = committer.submit(() -> {
                handle.force();
                return null;
            });
            assertThat(fs.awaitHungFsync(10, TimeUnit.SECONDS)).isTrue();
            assertThat(force).isNotDone();
            assertThat(fs.fsyncCount()).isZero();
            write(handle, "-more", 5); // the rest of the volume stays usable meanwhile

            fs.releaseFsyncs();
            force.get(10, TimeUnit.SECONDS);
            assertThat(fs.fsyncCount()).isEqualTo(1);
            handle.force(); // released: fsyncs no longer hang
        } finally {
            committer.shutdownNow();
        }
    }

    @Test
    void aFsyncHungAcrossACrashFailsAsStale() throws Exception {
        fs.createDirectories(DATA);
        ExecutorService committer = Executors.newSingleThreadExecutor();
        try {
            FileHandle handle = fs.open(SEGMENT, true);
            fs.hangFsyncs();
            Future<?> force = committer.submit(() -> {
                handle.force();
                return null;
            });
            assertThat(fs.awaitHungFsync(10, TimeUnit.SECONDS)).isTrue();

            fs.crash();
            fs.releaseFsyncs();

            assertThatThrownBy(() -> force.get(10, TimeUnit.SECONDS)).hasRootCauseMessage("stale handle after crash");
        } finally {
            committer.shutdownNow();
        }
    }
}
