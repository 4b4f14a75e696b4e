package io.kaas.adapter.fs.broker;

import io.kaas.adapter.fs.sim.ForwardingFilesystem;
import io.kaas.adapter.fs.sim.SimulatedFilesystem;
import java.io.IOException;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * One broker process's view of the simulated volume. When the process dies ({@link #kill}) every
 * further call, on the view or on a handle it opened, fails: a dead process writes nothing more,
 * even from a task that was half-way through when its machine lost power. Before each file fsync
 * and each directory fsync it runs a hook, which may pull the plug right there (the fsync then
 * fails, as the process is gone).
 *
 * <p>The composed operations keep the port's defaults (see {@link ForwardingFilesystem}), so the hook sees each of
 * their fsyncs.
 */
final class ProcessFilesystem extends ForwardingFilesystem {
    private final Consumer<Path> beforeSync;
    /** Hears every change to the volume when tracing ({@code -Dkaas.sim.trace=true}), else null. */
    private final Consumer<String> trace;
    private boolean dead;

    /** @param beforeSync runs with the path before every file or directory fsync; may {@link #kill} the process */
    ProcessFilesystem(SimulatedFilesystem volume, Consumer<Path> beforeSync, Consumer<String> trace) {
        super(volume);
        this.beforeSync = beforeSync;
        this.trace = trace;
    }

    private void trace(String what, Path path) {
        if (trace != null) {
            trace.accept("fs: " + what + " " + path);
        }
    }

    /** The process is gone: nothing it still runs reaches the volume. */
    void kill() {
        dead = true;
    }

    boolean isDead() {
        return dead;
    }

    /** Every call of a dead process fails. */
    @Override
    protected void beforeEachCall() throws IOException {
        if (dead) {
            throw new IOException("the broker process is dead");
        }
    }

    private void sync(Path path) throws IOException {
        beforeEachCall();
        beforeSync.accept(path);
        beforeEachCall();
    }

    @Override
    protected FileHandle wrap(Path file, FileHandle handle) {
        return new ForwardingHandle(handle) {
            @Override
            public void force() throws IOException {
                sync(file);
                trace("fsync", file);
                handle.force();
            }

            @Override
            public void truncate(long size) throws IOException {
                beforeEachCall();
                trace("truncate to " + size, file);
                handle.truncate(size);
            }
        };
    }

    @Override
    public void rename(Path from, Path to) throws IOException {
        beforeEachCall();
        trace("rename " + from + " to", to);
        delegate.rename(from, to);
    }

    @Override
    public void delete(Path file) throws IOException {
        beforeEachCall();
        trace("delete", file);
        delegate.delete(file);
    }

    @Override
    public void fsyncDirectory(Path dir) throws IOException {
        sync(dir);
        trace("fsync directory", dir);
        delegate.fsyncDirectory(dir);
    }
}
