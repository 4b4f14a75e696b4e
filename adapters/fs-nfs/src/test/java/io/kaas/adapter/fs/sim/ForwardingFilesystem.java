package io.kaas.adapter.fs.sim;

import io.kaas.application.port.out.Filesystem;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * A {@link Filesystem} that hands every primitive to another one, for test wrappers that change a few calls
 * (count them, crash at one, fail one). {@link #beforeEachCall} runs first in every primitive and handle
 * call; {@link #wrap} may decorate the handles {@link #open} returns. The composed operations
 * ({@code writeAtomically}, {@code deleteTree}, {@code deleteDurably}) keep the port's defaults, so a wrapper
 * sees each of their steps.
 */
public abstract class ForwardingFilesystem implements Filesystem {
    protected final Filesystem delegate;

    protected ForwardingFilesystem(Filesystem delegate) {
        this.delegate = delegate;
    }

    /** Runs before every call; may throw to refuse it. */
    protected void beforeEachCall() throws IOException {
    }

    /** The handle {@link #open} returns for {@code file}; the delegate's own by default. */
    protected FileHandle wrap(Path file, FileHandle handle) {
        return handle;
    }

    @Override
    public FileHandle open(Path file, boolean create) throws IOException {
        beforeEachCall();
        return wrap(file, delegate.open(file, create));
    }

    @Override
    public boolean createExclusive(Path file) throws IOException {
        beforeEachCall();
        return delegate.createExclusive(file);
    }

    @Override
    public Optional<byte[]> readAll(Path file) throws IOException {
        beforeEachCall();
        return delegate.readAll(file);
    }

    @Override
    public List<String> list(Path dir) throws IOException {
        beforeEachCall();
        return delegate.list(dir);
    }

    @Override
    public void createDirectories(Path dir) throws IOException {
        beforeEachCall();
        delegate.createDirectories(dir);
    }

    @Override
    public void rename(Path from, Path to) throws IOException {
        beforeEachCall();
        delegate.rename(from, to);
    }

    @Override
    public void delete(Path file) throws IOException {
        beforeEachCall();
        delegate.delete(file);
    }

    @Override
    public void fsyncDirectory(Path dir) throws IOException {
        beforeEachCall();
        delegate.fsyncDirectory(dir);
    }

    @Override
    public boolean exists(Path file) throws IOException {
        beforeEachCall();
        return delegate.exists(file);
    }

    @Override
    public boolean isDirectory(Path path) throws IOException {
        beforeEachCall();
        return delegate.isDirectory(path);
    }

    @Override
    public long lastModifiedMs(Path file) throws IOException {
        beforeEachCall();
        return delegate.lastModifiedMs(file);
    }

    @Override
    public Space space(Path dir) throws IOException {
        beforeEachCall();
        return delegate.space(dir);
    }

    /** A handle that hands every call to another one, running the filesystem's {@link #beforeEachCall} first. */
    protected class ForwardingHandle implements FileHandle {
        protected final FileHandle handle;

        protected ForwardingHandle(FileHandle handle) {
            this.handle = handle;
        }

        @Override
        public void write(ByteBuffer src, long position) throws IOException {
            beforeEachCall();
            handle.write(src, position);
        }

        @Override
        public int read(ByteBuffer dst, long position) throws IOException {
            beforeEachCall();
            return handle.read(dst, position);
        }

        @Override
        public void force() throws IOException {
            beforeEachCall();
            handle.force();
        }

        @Override
        public long size() throws IOException {
            beforeEachCall();
            return handle.size();
        }

        @Override
        public void truncate(long size) throws IOException {
            beforeEachCall();
            handle.truncate(size);
        }

        @Override
        public void close() throws IOException {
            handle.close(); // closing changes nothing on the volume
        }
    }
}
