package io.kaas.adapter.fs.broker;

import io.kaas.adapter.fs.sim.SimulatedFilesystem;
import io.kaas.application.port.out.Filesystem;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * One broker process's view of the simulated volume. When the process dies ({@link #kill}) every
 * further call, on the view or on a handle it opened, fails: a dead process writes nothing more,
 * even from a task that was half-way through when its machine lost power. Before each file fsync
 * and each directory fsync it runs a hook, which may pull the plug right there (the fsync then
 * fails, as the process is gone).
 *
 * <p>Only the port's primitives are delegated: the composed operations ({@code writeAtomically},
 * {@code deleteTree}, {@code deleteDurably}) keep the port's own default implementations, so the
 * hook sees each of their fsyncs.
 */
final class ProcessFilesystem implements Filesystem {
    private final SimulatedFilesystem volume;
    private final Consumer<Path> beforeSync;
    /** Hears every change to the volume when tracing ({@code -Dkaas.sim.trace=true}), else null. */
    private final Consumer<String> trace;
    private boolean dead;

    /** @param beforeSync runs with the path before every file or directory fsync; may {@link #kill} the process */
    ProcessFilesystem(SimulatedFilesystem volume, Consumer<Path> beforeSync, Consumer<String> trace) {
        this.volume = volume;
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

    private void alive() throws IOException {
        if (dead) {
            throw new IOException("the broker process is dead");
        }
    }

    private void sync(Path path) throws IOException {
        alive();
        beforeSync.accept(path);
        alive();
    }

    @Override
    public FileHandle open(Path file, boolean create) throws IOException {
        alive();
        FileHandle handle = volume.open(file, create);
        return new FileHandle() {
            @Override
            public void write(ByteBuffer src, long position) throws IOException {
                alive();
                handle.write(src, position);
            }

            @Override
            public int read(ByteBuffer dst, long position) throws IOException {
                alive();
                return handle.read(dst, position);
            }

            @Override
            public void force() throws IOException {
                sync(file);
                trace("fsync", file);
                handle.force();
            }

            @Override
            public long size() throws IOException {
                alive();
                return handle.size();
            }

            @Override
            public void truncate(long size) throws IOException {
                alive();
                trace("truncate to " + size, file);
                handle.truncate(size);
            }

            @Override
            public void close() throws IOException {
                handle.close(); // closing changes nothing on the volume
            }
        };
    }

    @Override
    public boolean createExclusive(Path file) throws IOException {
        alive();
        return volume.createExclusive(file);
    }

    @Override
    public Optional<byte[]> readAll(Path file) throws IOException {
        alive();
        return volume.readAll(file);
    }

    @Override
    public List<String> list(Path dir) throws IOException {
        alive();
        return volume.list(dir);
    }

    @Override
    public void createDirectories(Path dir) throws IOException {
        alive();
        volume.createDirectories(dir);
    }

    @Override
    public void rename(Path from, Path to) throws IOException {
        alive();
        trace("rename " + from + " to", to);
        volume.rename(from, to);
    }

    @Override
    public void delete(Path file) throws IOException {
        alive();
        trace("delete", file);
        volume.delete(file);
    }

    @Override
    public void fsyncDirectory(Path dir) throws IOException {
        sync(dir);
        trace("fsync directory", dir);
        volume.fsyncDirectory(dir);
    }

    @Override
    public boolean exists(Path file) throws IOException {
        alive();
        return volume.exists(file);
    }

    @Override
    public boolean isDirectory(Path path) throws IOException {
        alive();
        return volume.isDirectory(path);
    }

    @Override
    public long lastModifiedMs(Path file) throws IOException {
        alive();
        return volume.lastModifiedMs(file);
    }

    @Override
    public Space space(Path dir) throws IOException {
        alive();
        return volume.space(dir);
    }
}
