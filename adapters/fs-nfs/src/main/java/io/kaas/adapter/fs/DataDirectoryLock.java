package io.kaas.adapter.fs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A standalone broker's claim on its data directory, as Apache's {@code .lock} in each log dir: an
 * OS file lock on {@code <data>/.lock}, so a second broker pointed at the same directory refuses to
 * start instead of writing the same segments, and a killed broker's claim ends with its process.
 */
public final class DataDirectoryLock implements AutoCloseable {
    static final String FILE = ".lock";

    private final FileChannel channel;
    private final FileLock lock;

    private DataDirectoryLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /** Takes the lock, or fails naming the directory when another broker holds it. */
    public static DataDirectoryLock acquire(Path dataDir) {
        Path file = dataDir.resolve(FILE);
        FileChannel channel = null;
        try {
            Files.createDirectories(dataDir);
            channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            FileLock lock = tryLock(channel);
            if (lock == null) {
                throw new IllegalStateException("Failed to acquire lock on file " + FILE + " in "
                        + dataDir.toAbsolutePath() + ". A broker in another process or thread is using this directory.");
            }
            return new DataDirectoryLock(channel, lock);
        } catch (IOException e) {
            closeQuietly(channel);
            throw new UncheckedIOException("cannot lock the data directory " + dataDir.toAbsolutePath(), e);
        } catch (RuntimeException e) {
            closeQuietly(channel);
            throw e;
        }
    }

    private static FileLock tryLock(FileChannel channel) throws IOException {
        try {
            return channel.tryLock();
        } catch (OverlappingFileLockException heldInThisProcess) {
            return null;
        }
    }

    @Override
    public void close() {
        try {
            lock.release();
        } catch (IOException ignored) {
            // closing the channel releases it too
        }
        closeQuietly(channel);
    }

    private static void closeQuietly(FileChannel channel) {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // nothing held: the lock goes with the channel
            }
        }
    }
}
