package io.kaas.adapter.fs;

import io.kaas.application.port.out.Filesystem;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.LongSupplier;

/**
 * The volume of {@code KAAS_STORAGE=memory}: files in the broker's heap, gone when it stops. Every
 * metadata store runs on it exactly as on the real volume (same JSON files, same atomic writes), so
 * the memory mode exercises the disk mode's code. Everything is durable at once: there is no crash
 * to survive, only a process that ends.
 */
public final class MemoryFilesystem implements Filesystem {
    /** Directories map to null, files to their content holder. */
    private final Map<Path, Content> nodes = new TreeMap<>();
    private final LongSupplier clockMs;

    /** @param clockMs stamps each file's modification time */
    public MemoryFilesystem(LongSupplier clockMs) {
        this.clockMs = clockMs;
    }

    private static Path key(Path path) {
        return path.toAbsolutePath().normalize();
    }

    private void requireDirectory(Path dir) throws IOException {
        if (dir == null || dir.getParent() == null) {
            return; // the root
        }
        if (!nodes.containsKey(dir)) {
            throw new NoSuchFileException(dir.toString());
        }
        if (nodes.get(dir) != null) {
            throw new NotDirectoryException(dir.toString());
        }
    }

    @Override
    public synchronized FileHandle open(Path file, boolean create) throws IOException {
        Path key = key(file);
        Content content = nodes.get(key);
        if (content == null) {
            if (nodes.containsKey(key)) {
                throw new FileSystemException(file.toString(), null, "Is a directory");
            }
            if (!create) {
                throw new NoSuchFileException(file.toString());
            }
            requireDirectory(key.getParent());
            content = new Content(clockMs);
            nodes.put(key, content);
        }
        return new Handle(content);
    }

    @Override
    public synchronized boolean createExclusive(Path file) throws IOException {
        Path key = key(file);
        if (nodes.containsKey(key)) {
            return false;
        }
        requireDirectory(key.getParent());
        nodes.put(key, new Content(clockMs));
        return true;
    }

    @Override
    public synchronized Optional<byte[]> readAll(Path file) throws IOException {
        Path key = key(file);
        if (!nodes.containsKey(key)) {
            return Optional.empty();
        }
        Content content = nodes.get(key);
        if (content == null) {
            throw new FileSystemException(file.toString(), null, "Is a directory");
        }
        return Optional.of(content.snapshot());
    }

    @Override
    public synchronized List<String> list(Path dir) throws IOException {
        Path key = key(dir);
        if (!nodes.containsKey(key)) {
            return List.of();
        }
        if (nodes.get(key) != null) {
            throw new NotDirectoryException(dir.toString());
        }
        List<String> names = new ArrayList<>();
        for (Path path : nodes.keySet()) {
            if (key.equals(path.getParent())) {
                names.add(path.getFileName().toString());
            }
        }
        return names;
    }

    @Override
    public synchronized void createDirectories(Path dir) throws IOException {
        Path key = key(dir);
        for (Path p = key; p != null && p.getParent() != null; p = p.getParent()) {
            if (nodes.containsKey(p) && nodes.get(p) != null) {
                throw new FileAlreadyExistsException(p.toString());
            }
        }
        for (Path p = key; p != null && p.getParent() != null; p = p.getParent()) {
            nodes.putIfAbsent(p, null);
        }
    }

    @Override
    public synchronized void rename(Path from, Path to) throws IOException {
        Path source = key(from);
        Path target = key(to);
        if (!nodes.containsKey(source)) {
            throw new NoSuchFileException(from.toString());
        }
        if (nodes.get(source) == null) {
            throw new FileSystemException(from.toString(), to.toString(), "only files are renamed on this volume");
        }
        if (nodes.containsKey(target) && nodes.get(target) == null) {
            throw new FileSystemException(from.toString(), to.toString(), "Is a directory");
        }
        requireDirectory(target.getParent());
        nodes.put(target, nodes.remove(source));
    }

    @Override
    public synchronized void delete(Path file) throws IOException {
        Path key = key(file);
        if (!nodes.containsKey(key)) {
            return;
        }
        if (nodes.get(key) == null && !list(key).isEmpty()) {
            throw new DirectoryNotEmptyException(file.toString());
        }
        nodes.remove(key);
    }

    @Override
    public void fsyncDirectory(Path dir) {
        // everything is as durable as it will ever be
    }

    @Override
    public synchronized boolean exists(Path file) {
        return nodes.containsKey(key(file));
    }

    @Override
    public synchronized boolean isDirectory(Path path) {
        Path key = key(path);
        return nodes.containsKey(key) && nodes.get(key) == null;
    }

    @Override
    public synchronized long lastModifiedMs(Path file) throws IOException {
        Content content = nodes.get(key(file));
        if (content == null) {
            throw new NoSuchFileException(file.toString());
        }
        return content.modifiedMs();
    }

    /** A file's bytes; an open handle keeps them after the name is deleted or replaced, as with POSIX. */
    private static final class Content {
        private final LongSupplier clockMs;
        private byte[] bytes = new byte[0];
        private int size;
        private long modifiedMs;

        Content(LongSupplier clockMs) {
            this.clockMs = clockMs;
            this.modifiedMs = clockMs.getAsLong();
        }

        synchronized byte[] snapshot() {
            return Arrays.copyOf(bytes, size);
        }

        synchronized void write(ByteBuffer src, long position) {
            int at = Math.toIntExact(position);
            int length = src.remaining();
            if (at + length > bytes.length) {
                bytes = Arrays.copyOf(bytes, Math.max(at + length, bytes.length * 2));
            }
            src.get(bytes, at, length);
            size = Math.max(size, at + length);
            modifiedMs = clockMs.getAsLong();
        }

        synchronized int read(ByteBuffer dst, long position) {
            if (position >= size) {
                return -1;
            }
            int n = (int) Math.min(dst.remaining(), size - position);
            dst.put(bytes, (int) position, n);
            return n;
        }

        synchronized long modifiedMs() {
            return modifiedMs;
        }

        synchronized long size() {
            return size;
        }

        synchronized void truncate(long newSize) {
            if (newSize < size) {
                size = (int) newSize;
            }
        }
    }

    private static final class Handle implements FileHandle {
        private final Content content;

        Handle(Content content) {
            this.content = content;
        }

        @Override
        public void write(ByteBuffer src, long position) {
            content.write(src, position);
        }

        @Override
        public int read(ByteBuffer dst, long position) {
            return content.read(dst, position);
        }

        @Override
        public void force() {
            // durable at once
        }

        @Override
        public long size() {
            return content.size();
        }

        @Override
        public void truncate(long size) {
            content.truncate(size);
        }

        @Override
        public void close() {
            // nothing held
        }
    }
}
