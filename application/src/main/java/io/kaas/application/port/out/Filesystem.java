package io.kaas.application.port.out;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The shared volume, as the storage engine may use it. Only the substrate contract's primitives
 * are atomic: a same-directory {@link #rename}, an exclusive {@link #createExclusive}, and
 * close-to-open visibility. Data is durable only once {@link FileHandle#force} returns, and a
 * created, renamed or deleted name only once {@link #fsyncDirectory} of its directory returns.
 *
 * <p>Implementations: java.nio on the real volume, and a seeded fault-injecting simulation for
 * tests (crashes lose what was not made durable; fsync and writes can fail; the disk can fill).
 */
public interface Filesystem {

    /** Opens a file for positional reads and writes, creating it (empty) if {@code create} and absent. */
    FileHandle open(Path file, boolean create) throws IOException;

    /** Creates an empty file only if no file has that name; true if this call created it. */
    boolean createExclusive(Path file) throws IOException;

    /** The whole content of a small file, or empty if it does not exist. */
    Optional<byte[]> readAll(Path file) throws IOException;

    /** Names of the entries of a directory, or an empty list if it does not exist. */
    List<String> list(Path dir) throws IOException;

    /** Creates a directory and its missing parents, and makes each creation durable. */
    void createDirectories(Path dir) throws IOException;

    /** Renames within one directory, atomically replacing any existing target. */
    void rename(Path from, Path to) throws IOException;

    /** Removes a file; a missing file is not an error. */
    void delete(Path file) throws IOException;

    /** Makes creations, renames and deletions in a directory durable. */
    void fsyncDirectory(Path dir) throws IOException;

    boolean exists(Path file) throws IOException;

    /** Whether {@code path} names a directory (false if it names a file or nothing). */
    boolean isDirectory(Path path) throws IOException;

    /** Last modification time, for files whose content does not say how old they are. */
    long lastModifiedMs(Path file) throws IOException;

    /**
     * The size of the volume holding {@code dir} and the space still usable on it, for
     * DescribeLogDirs; {@link Space#UNKNOWN} where the implementation cannot tell.
     */
    default Space space(Path dir) throws IOException {
        return Space.UNKNOWN;
    }

    /** A volume's size and the bytes still usable on it; -1 for unknown. */
    record Space(long totalBytes, long usableBytes) {
        public static final Space UNKNOWN = new Space(-1L, -1L);
    }

    /**
     * Replaces a file's content atomically and durably: write a temp file beside it, fsync it,
     * rename it over the target, fsync the directory. The temp name is unique per write, so two
     * in-process writers of one file never share a temp file; a failed write removes its temp file.
     */
    default void writeAtomically(Path file, byte[] content) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        Path temp = dir.resolve("." + file.getFileName() + ".tmp-" + TempNames.next());
        try {
            try (FileHandle handle = open(temp, true)) {
                handle.truncate(0); // a crashed earlier run may have left a temp file of this name
                handle.write(ByteBuffer.wrap(content), 0);
                handle.force();
            }
            rename(temp, file);
        } catch (IOException | RuntimeException e) {
            try {
                delete(temp);
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed); // the temp name is ignored by readers; a leftover is harmless
            }
            throw e;
        }
        fsyncDirectory(dir);
    }

    /**
     * Removes a directory tree, deepest entries first, then makes the removal durable in its parent —
     * also when the tree is already gone: a retry after a failed directory fsync must not report a
     * removal durable that is not.
     */
    default void deleteTree(Path root) throws IOException {
        if (exists(root)) {
            removeRecursively(root);
        }
        fsyncParent(root);
    }

    private void removeRecursively(Path path) throws IOException {
        if (isDirectory(path)) {
            for (String entry : list(path)) {
                removeRecursively(path.resolve(entry));
            }
        }
        delete(path);
    }

    /**
     * Deletes a file and makes the deletion durable; a missing file is not an error, and its directory
     * is still fsynced (the deletion may be a retry whose fsync failed).
     */
    default void deleteDurably(Path file) throws IOException {
        if (exists(file)) {
            delete(file);
        }
        fsyncParent(file);
    }

    private void fsyncParent(Path path) throws IOException {
        Path parent = path.toAbsolutePath().getParent();
        if (parent != null && exists(parent)) {
            fsyncDirectory(parent);
        }
    }

    /** Unique temp-file suffixes for this process. */
    final class TempNames {
        private static final AtomicLong NEXT = new AtomicLong();

        private TempNames() {
        }

        static long next() {
            return NEXT.incrementAndGet();
        }
    }

    /** An open file. Positional I/O only: there is no shared file pointer. */
    interface FileHandle extends AutoCloseable {
        /** Largest copy {@link #transferTo}'s default makes per call. */
        int TRANSFER_CHUNK = 64 * 1024;

        /** Writes all of {@code src} at {@code position}. */
        void write(ByteBuffer src, long position) throws IOException;

        /** Reads into {@code dst} from {@code position}; the count read, or -1 at end of file. */
        int read(ByteBuffer dst, long position) throws IOException;

        /**
         * Sends up to {@code count} bytes from {@code position} to {@code target}, returning how many
         * went (possibly fewer, as a non-blocking socket takes what fits). The java.nio handle lets the
         * kernel copy file to socket (sendfile); this default copies through memory.
         */
        default long transferTo(long position, long count, WritableByteChannel target) throws IOException {
            ByteBuffer chunk = ByteBuffer.allocate((int) Math.min(count, TRANSFER_CHUNK));
            int read = read(chunk, position);
            if (read <= 0) {
                return 0;
            }
            chunk.flip();
            return target.write(chunk);
        }

        /**
         * The open file as the kernel channel {@link #transferTo} sends from, for a transport that calls sendfile
         * itself with a file channel of its own kind (Netty's native epoll); empty where there is none (the
         * simulation, memory). Typed as a {@link SeekableByteChannel} so the core can hand it on without naming a
         * file API; only the transport reads from it, and only the handle's owner writes or closes it.
         */
        default Optional<SeekableByteChannel> sendableChannel() {
            return Optional.empty();
        }

        /** Makes every byte written so far durable (fsync). */
        void force() throws IOException;

        long size() throws IOException;

        void truncate(long size) throws IOException;

        @Override
        void close() throws IOException;
    }
}
