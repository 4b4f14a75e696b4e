package io.kaas.adapter.fs.log;

import io.kaas.adapter.fs.sim.ForwardingFilesystem;
import io.kaas.application.port.out.Filesystem;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * Wraps a {@link Filesystem} to count what the engine does with segment logs (bytes read, file
 * fsyncs) and to run a test's hook just before a file fsync, i.e. while that fsync is "pending".
 */
final class InstrumentedFilesystem extends ForwardingFilesystem {
    private final AtomicLong logBytesRead = new AtomicLong();
    private final AtomicLong forces = new AtomicLong();
    private volatile Consumer<Path> beforeForce = path -> { };
    private volatile BiConsumer<Path, Path> beforeRename = (from, to) -> { };
    private volatile int directorySyncsUntilFailure = -1;

    InstrumentedFilesystem(Filesystem delegate) {
        super(delegate);
    }

    /** Bytes read from {@code .log} files through handles (recovery scans, reads). */
    long logBytesRead() {
        return logBytesRead.get();
    }

    /** File fsyncs ({@link FileHandle#force}) started, of any file. */
    long forces() {
        return forces.get();
    }

    void resetCounters() {
        logBytesRead.set(0);
        forces.set(0);
    }

    /** Runs {@code hook} with the file's path before each file fsync. */
    void beforeForce(Consumer<Path> hook) {
        beforeForce = hook;
    }

    /** Runs {@code hook} with both paths before each rename (the last step of an atomic write). */
    void beforeRename(BiConsumer<Path, Path> hook) {
        beforeRename = hook;
    }

    /** The directory fsync after the next {@code succeeding} ones fails (a file fsync cannot be singled out so in the sim). */
    void failDirectorySyncAfter(int succeeding) {
        directorySyncsUntilFailure = succeeding;
    }

    @Override
    protected FileHandle wrap(Path file, FileHandle handle) {
        boolean isLog = file.getFileName().toString().endsWith(".log");
        return new ForwardingHandle(handle) {
            @Override
            public int read(ByteBuffer dst, long position) throws IOException {
                int n = handle.read(dst, position);
                if (isLog && n > 0) {
                    logBytesRead.addAndGet(n);
                }
                return n;
            }

            @Override
            public void force() throws IOException {
                beforeForce.accept(file);
                forces.incrementAndGet();
                handle.force();
            }
        };
    }

    @Override
    public void rename(Path from, Path to) throws IOException {
        beforeRename.accept(from, to);
        delegate.rename(from, to);
    }

    @Override
    public void fsyncDirectory(Path dir) throws IOException {
        if (directorySyncsUntilFailure >= 0 && directorySyncsUntilFailure-- == 0) {
            throw new IOException("directory fsync failed");
        }
        delegate.fsyncDirectory(dir);
    }
}
