package io.kaas.adapter.fs.sim;

import io.kaas.application.port.out.Filesystem;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * Kills the process at its {@code crashAt}-th changing call once {@link #arm armed}: that call, and every one after
 * it, throws {@link Crash} instead of happening. Tests then {@link SimulatedFilesystem#crash} the volume and check
 * what recovery makes of it, for every {@code crashAt} until a run finishes without reaching it.
 */
public final class CrashingFilesystem extends ForwardingFilesystem {
    private final int crashAt;
    private int calls;
    private boolean armed;
    private boolean crashed;

    public CrashingFilesystem(Filesystem fs, int crashAt) {
        super(fs);
        this.crashAt = crashAt;
    }

    /** The process dies. */
    public static final class Crash extends RuntimeException {
        public Crash() {
            super("simulated process death");
        }
    }

    /** Counts calls from now on. */
    public void arm() {
        armed = true;
    }

    /** Whether the process died. */
    public boolean crashed() {
        return crashed;
    }

    private synchronized void step() {
        if (armed && (crashed || ++calls == crashAt)) {
            crashed = true;
            throw new Crash();
        }
    }

    @Override
    protected FileHandle wrap(Path file, FileHandle handle) {
        return new ForwardingHandle(handle) {
            @Override
            public void write(ByteBuffer src, long position) throws IOException {
                step();
                handle.write(src, position);
            }

            @Override
            public void force() throws IOException {
                step();
                handle.force();
            }

            @Override
            public void truncate(long size) throws IOException {
                step();
                handle.truncate(size);
            }
        };
    }

    @Override
    public boolean createExclusive(Path file) throws IOException {
        step();
        return delegate.createExclusive(file);
    }

    @Override
    public void createDirectories(Path dir) throws IOException {
        step();
        delegate.createDirectories(dir);
    }

    @Override
    public void rename(Path from, Path to) throws IOException {
        step();
        delegate.rename(from, to);
    }

    @Override
    public void delete(Path file) throws IOException {
        step();
        delegate.delete(file);
    }

    @Override
    public void fsyncDirectory(Path dir) throws IOException {
        step();
        delegate.fsyncDirectory(dir);
    }
}
