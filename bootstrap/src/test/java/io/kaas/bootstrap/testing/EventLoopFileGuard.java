package io.kaas.bootstrap.testing;

import io.kaas.adapter.wire.KafkaServer;
import io.kaas.application.port.out.Filesystem;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The threading rule's detector: a {@link Filesystem} that records every call made on a connection's
 * event loop (BlockHound-style, at the one port every file goes through). An fsync, a directory
 * listing or even a page-cache read there stalls every connection on that loop for as long as the
 * volume takes, so the integration tests' brokers run over this guard and fail at close when it saw
 * one. The one call allowed is {@link FileHandle#transferTo}: the zero-copy send of a fetch response,
 * which Netty performs on the loop when the socket can take it, as Apache's network threads do.
 */
public final class EventLoopFileGuard implements Filesystem {
    private final Filesystem delegate;
    private final List<Throwable> violations = new CopyOnWriteArrayList<>();

    public EventLoopFileGuard(Filesystem delegate) {
        this.delegate = delegate;
    }

    /** Where each call on an event loop came from, oldest first. */
    public List<Throwable> violations() {
        return List.copyOf(violations);
    }

    /** Throws the first violation (with a few more suppressed), naming every distinct call site, if there was one. */
    public void assertNoViolations() {
        if (violations.isEmpty()) {
            return;
        }
        Set<String> sites = new TreeSet<>();
        violations.forEach(v -> sites.add(site(v)));
        AssertionError error = new AssertionError(violations.size() + " file call(s) on a Netty event loop, from "
                + String.join("; ", sites), violations.get(0));
        violations.stream().skip(1).limit(3).forEach(error::addSuppressed);
        throw error;
    }

    /** The call and the broker frames nearest to it, e.g. "write via DiskSegments.write < ProducerTrackingLog.append". */
    private static String site(Throwable violation) {
        List<String> frames = new ArrayList<>();
        for (StackTraceElement frame : violation.getStackTrace()) {
            String type = frame.getClassName();
            if (type.startsWith("io.kaas.") && !type.equals(EventLoopFileGuard.class.getName())
                    && !type.startsWith(EventLoopFileGuard.class.getName() + "$") && frames.size() < 3) {
                frames.add(type.substring(type.lastIndexOf('.') + 1) + "." + frame.getMethodName());
            }
        }
        String call = violation.getMessage().substring(0, violation.getMessage().indexOf('('));
        return call + " via " + String.join(" < ", frames);
    }

    private void check(String call, Object target) {
        String thread = Thread.currentThread().getName();
        if (thread.startsWith(KafkaServer.EVENT_LOOP_THREADS) || thread.startsWith(KafkaServer.ACCEPTOR_THREADS)) {
            violations.add(new IllegalStateException(call + "(" + target + ") on event loop " + thread));
        }
    }

    @Override
    public FileHandle open(Path file, boolean create) throws IOException {
        check("open", file);
        return new GuardedHandle(delegate.open(file, create), file);
    }

    @Override
    public boolean createExclusive(Path file) throws IOException {
        check("createExclusive", file);
        return delegate.createExclusive(file);
    }

    @Override
    public Optional<byte[]> readAll(Path file) throws IOException {
        check("readAll", file);
        return delegate.readAll(file);
    }

    @Override
    public List<String> list(Path dir) throws IOException {
        check("list", dir);
        return delegate.list(dir);
    }

    @Override
    public void createDirectories(Path dir) throws IOException {
        check("createDirectories", dir);
        delegate.createDirectories(dir);
    }

    @Override
    public void rename(Path from, Path to) throws IOException {
        check("rename", from);
        delegate.rename(from, to);
    }

    @Override
    public void delete(Path file) throws IOException {
        check("delete", file);
        delegate.delete(file);
    }

    @Override
    public void fsyncDirectory(Path dir) throws IOException {
        check("fsyncDirectory", dir);
        delegate.fsyncDirectory(dir);
    }

    @Override
    public boolean exists(Path file) throws IOException {
        check("exists", file);
        return delegate.exists(file);
    }

    @Override
    public boolean isDirectory(Path path) throws IOException {
        check("isDirectory", path);
        return delegate.isDirectory(path);
    }

    @Override
    public long lastModifiedMs(Path file) throws IOException {
        check("lastModifiedMs", file);
        return delegate.lastModifiedMs(file);
    }

    @Override
    public Space space(Path dir) throws IOException {
        check("space", dir);
        return delegate.space(dir);
    }

    private final class GuardedHandle implements FileHandle {
        private final FileHandle handle;
        private final Path file;

        GuardedHandle(FileHandle handle, Path file) {
            this.handle = handle;
            this.file = file;
        }

        @Override
        public void write(ByteBuffer src, long position) throws IOException {
            check("write", file);
            handle.write(src, position);
        }

        @Override
        public int read(ByteBuffer dst, long position) throws IOException {
            check("read", file);
            return handle.read(dst, position);
        }

        @Override
        public long transferTo(long position, long count, WritableByteChannel target) throws IOException {
            return handle.transferTo(position, count, target);
        }

        @Override
        public void force() throws IOException {
            check("force", file);
            handle.force();
        }

        @Override
        public long size() throws IOException {
            check("size", file);
            return handle.size();
        }

        @Override
        public void truncate(long size) throws IOException {
            check("truncate", file);
            handle.truncate(size);
        }

        @Override
        public void close() throws IOException {
            check("close", file);
            handle.close();
        }
    }
}
