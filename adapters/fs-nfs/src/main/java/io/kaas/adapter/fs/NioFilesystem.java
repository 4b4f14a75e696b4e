package io.kaas.adapter.fs;

import io.kaas.application.port.out.Filesystem;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The {@link Filesystem} port on java.nio, for the real shared volume. Every durability step is an
 * explicit sync: fdatasync ({@code force(false)}) on files, fsync on directories opened for reading (Linux and
 * NFS clients accept that, and it is how a created, renamed or deleted name becomes durable).
 * Stateless and thread-safe.
 */
public final class NioFilesystem implements Filesystem {

    @Override
    public FileHandle open(Path file, boolean create) throws IOException {
        FileChannel channel = create
                ? FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE, StandardOpenOption.CREATE)
                : FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
        return new NioFileHandle(channel);
    }

    @Override
    public boolean createExclusive(Path file) throws IOException {
        try {
            // CREATE_NEW is O_CREAT|O_EXCL: the substrate guarantees exactly one racer wins.
            FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.CREATE_NEW).close();
            return true;
        } catch (FileAlreadyExistsException e) {
            return false;
        }
    }

    @Override
    public Optional<byte[]> readAll(Path file) throws IOException {
        try {
            return Optional.of(Files.readAllBytes(file));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
    }

    @Override
    public List<String> list(Path dir) throws IOException {
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.map(entry -> entry.getFileName().toString()).sorted().toList();
        } catch (NoSuchFileException e) {
            return List.of();
        }
    }

    @Override
    public void createDirectories(Path dir) throws IOException {
        Deque<Path> missing = new ArrayDeque<>();
        for (Path p = dir.toAbsolutePath().normalize(); p != null && !Files.isDirectory(p); p = p.getParent()) {
            missing.push(p);
        }
        // Top-down, so each new directory's parent exists and can be fsynced to make the new name durable.
        for (Path p : missing) {
            try {
                Files.createDirectory(p);
            } catch (FileAlreadyExistsException e) {
                if (!Files.isDirectory(p)) {
                    throw e;
                }
                continue; // a racer created it, and made it durable itself
            }
            try {
                fsyncDirectory(p.getParent());
            } catch (IOException e) {
                // Not durable: take it away again, or every later call would find it and take it for durable.
                try {
                    Files.delete(p);
                } catch (IOException suppressed) {
                    e.addSuppressed(suppressed);
                }
                throw e;
            }
        }
    }

    @Override
    public void rename(Path from, Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            // Copy-then-delete would break the contract's load-bearing primitive: refuse instead.
            throw new IOException("the filesystem cannot rename " + from + " to " + to + " atomically", e);
        }
    }

    @Override
    public void delete(Path file) throws IOException {
        Files.deleteIfExists(file);
    }

    @Override
    public void fsyncDirectory(Path dir) throws IOException {
        try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
            channel.force(true);
        }
    }

    @Override
    public boolean exists(Path file) {
        return Files.exists(file);
    }

    @Override
    public boolean isDirectory(Path path) {
        return Files.isDirectory(path);
    }

    @Override
    public long lastModifiedMs(Path file) throws IOException {
        return Files.getLastModifiedTime(file).toMillis();
    }

    @Override
    public Space space(Path dir) throws IOException {
        FileStore store = Files.getFileStore(dir);
        return new Space(largeIfNegative(store.getTotalSpace()), largeIfNegative(store.getUsableSpace()));
    }

    /** Volumes beyond 8 EiB overflow to a negative size; report them as the largest, as Apache does. */
    private static long largeIfNegative(long bytes) {
        return bytes < 0 ? Long.MAX_VALUE : bytes;
    }

    /** A {@link FileChannel} used only positionally, so handles never share a file pointer. */
    private static final class NioFileHandle implements FileHandle {
        private final FileChannel channel;

        NioFileHandle(FileChannel channel) {
            this.channel = channel;
        }

        @Override
        public void write(ByteBuffer src, long position) throws IOException {
            long at = position;
            // A positional write may be short; the port promises all of src.
            while (src.hasRemaining()) {
                at += channel.write(src, at);
            }
        }

        @Override
        public int read(ByteBuffer dst, long position) throws IOException {
            return channel.read(dst, position);
        }

        @Override
        public long transferTo(long position, long count, WritableByteChannel target) throws IOException {
            return channel.transferTo(position, count, target); // sendfile: page cache to socket, no copy here
        }

        @Override
        public Optional<SeekableByteChannel> sendableChannel() {
            return Optional.of(channel);
        }

        @Override
        public void force() throws IOException {
            // fdatasync: data and the size needed to read it back, without the timestamps fsync would also
            // journal. On an append-only file that is the whole durability contract, one metadata write cheaper.
            channel.force(false);
        }

        @Override
        public long size() throws IOException {
            return channel.size();
        }

        @Override
        public void truncate(long size) throws IOException {
            channel.truncate(size);
        }

        @Override
        public void close() throws IOException {
            channel.close();
        }
    }
}
