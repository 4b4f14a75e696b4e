package io.kaas.adapter.fs.sim;

import io.kaas.application.port.out.Filesystem.FileHandle;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * An open simulated file. It holds the inode, not the name, so it stays readable after the name is
 * deleted or renamed (POSIX unlink semantics), and it dies with the process on {@code crash()}.
 */
final class SimHandle implements FileHandle {
    private final SimulatedFilesystem fs;
    private final SimFile file;
    private final long generation;
    private boolean closed;

    SimHandle(SimulatedFilesystem fs, SimFile file, long generation) {
        this.fs = fs;
        this.file = file;
        this.generation = generation;
    }

    SimFile file() {
        return file;
    }

    long generation() {
        return generation;
    }

    boolean isClosed() {
        return closed;
    }

    @Override
    public void write(ByteBuffer src, long position) throws IOException {
        fs.write(this, src, position);
    }

    @Override
    public int read(ByteBuffer dst, long position) throws IOException {
        return fs.read(this, dst, position);
    }

    @Override
    public void force() throws IOException {
        fs.force(this);
    }

    @Override
    public long size() throws IOException {
        return fs.size(this);
    }

    @Override
    public void truncate(long size) throws IOException {
        fs.truncate(this, size);
    }

    /** Never fails, not even after a crash: the handle is released either way. */
    @Override
    public void close() {
        fs.close(this);
    }

    /** Called under the filesystem's lock. */
    void markClosed() {
        closed = true;
    }
}
