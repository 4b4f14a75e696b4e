package io.kaas.adapter.fs.sim;

import io.kaas.application.port.out.Filesystem;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * An in-memory model of a POSIX/NFS volume for crash-consistency tests of the storage engine. It
 * never touches the real disk.
 *
 * <p>Each file has current bytes (what reads see) and durable bytes (what survives a crash);
 * {@link FileHandle#force} makes the current ones durable. Each directory has current and durable
 * entries; {@link #fsyncDirectory} makes the current ones durable, so a create, rename or delete
 * is lost by a {@link #crash} until its directory is fsynced. {@link #createDirectories} fsyncs
 * each new directory's parent, as the java.nio adapter does.
 *
 * <p>Faults: torn writes and garbled pages at a crash, failing fsyncs (at a rate, or the next N),
 * hanging fsyncs (until the test releases them), and ENOSPC past a capacity — see
 * {@link SimOptions}. Every random choice draws on one {@code Random(seed)}, so the same seed,
 * options and sequence of calls give the same outcome. Thread-safe (one lock); with several
 * threads the outcome follows their interleaving.
 */
public final class SimulatedFilesystem implements Filesystem {
    private static final String STALE = "stale handle after crash";

    private final Random random;
    private final LongSupplier clockMs;
    private final Namespace namespace = new Namespace();
    private final FsyncFaults faults = new FsyncFaults();
    /** Handles of the current "process"; their files use space even when no name leads to them. */
    private final Set<SimHandle> openHandles = new HashSet<>();
    private SimOptions options;
    /** Bumped by each crash; a handle from an older generation is stale. */
    private long generation;
    private long fsyncCount;
    private long directoryFsyncCount;
    private long failedFsyncCount;
    private long bytesWritten;

    /** A reliable volume (no faults until a test asks for them) whose clock stands at 0. */
    public SimulatedFilesystem(long seed) {
        this(seed, SimOptions.reliable(), () -> 0L);
    }

    public SimulatedFilesystem(long seed, SimOptions options) {
        this(seed, options, () -> 0L);
    }

    /** {@code clockMs} stamps modification times, typically the test's manual clock. */
    public SimulatedFilesystem(long seed, SimOptions options, LongSupplier clockMs) {
        this.random = new Random(seed);
        this.options = options;
        this.clockMs = clockMs;
    }

    // ---- the Filesystem port ----

    @Override
    public synchronized FileHandle open(Path file, boolean create) throws IOException {
        Path key = Namespace.key(file);
        SimDir dir = namespace.parent(key);
        SimNode node = dir.get(Namespace.name(key));
        if (node == null) {
            if (!create) {
                throw new NoSuchFileException(file.toString());
            }
            node = new SimFile(clockMs.getAsLong());
            dir.link(Namespace.name(key), node, clockMs.getAsLong());
        }
        if (!(node instanceof SimFile simFile)) {
            throw new FileSystemException(file.toString(), null, "Is a directory");
        }
        SimHandle handle = new SimHandle(this, simFile, generation);
        openHandles.add(handle);
        return handle;
    }

    @Override
    public synchronized boolean createExclusive(Path file) throws IOException {
        Path key = Namespace.key(file);
        SimDir dir = namespace.parent(key);
        if (dir.get(Namespace.name(key)) != null) {
            return false;
        }
        dir.link(Namespace.name(key), new SimFile(clockMs.getAsLong()), clockMs.getAsLong());
        return true;
    }

    @Override
    public synchronized Optional<byte[]> readAll(Path file) throws IOException {
        SimNode node = namespace.find(Namespace.key(file));
        if (node == null) {
            return Optional.empty();
        }
        if (node instanceof SimFile simFile) {
            return Optional.of(simFile.currentBytes());
        }
        throw new FileSystemException(file.toString(), null, "Is a directory");
    }

    @Override
    public synchronized List<String> list(Path dir) throws IOException {
        SimNode node = namespace.find(Namespace.key(dir));
        if (node == null) {
            return List.of();
        }
        if (node instanceof SimDir simDir) {
            return new ArrayList<>(simDir.entries().keySet()); // sorted: the entries are a TreeMap
        }
        throw new NotDirectoryException(dir.toString());
    }

    @Override
    public void createDirectories(Path dir) throws IOException {
        Path key = Namespace.key(dir);
        Path prefix = key.getRoot();
        for (Path component : key) {
            prefix = prefix.resolve(component);
            if (createDirectory(prefix)) {
                // As on the real volume: a new directory's name is durable once its parent is fsynced. As the java.nio
                // adapter does, one whose parent could not be fsynced is removed again, so a retry creates it durably.
                try {
                    fsyncDirectory(prefix.getParent());
                } catch (IOException e) {
                    try {
                        delete(prefix);
                    } catch (IOException suppressed) {
                        e.addSuppressed(suppressed);
                    }
                    throw e;
                }
            }
        }
    }

    /** Creates one directory whose parent exists; false if it already existed. */
    private synchronized boolean createDirectory(Path key) throws IOException {
        SimDir parent = namespace.parent(key);
        SimNode node = parent.get(Namespace.name(key));
        if (node instanceof SimDir) {
            return false;
        }
        if (node != null) {
            throw new FileAlreadyExistsException(key.toString());
        }
        parent.link(Namespace.name(key), new SimDir(clockMs.getAsLong()), clockMs.getAsLong());
        return true;
    }

    /** Moves the name; across directories too, each side then durable once its own directory is fsynced. */
    @Override
    public synchronized void rename(Path from, Path to) throws IOException {
        Path source = Namespace.key(from);
        Path target = Namespace.key(to);
        SimDir sourceDir = namespace.parent(source);
        SimNode node = sourceDir.get(Namespace.name(source));
        if (node == null) {
            throw new NoSuchFileException(from.toString());
        }
        SimDir targetDir = namespace.parent(target);
        if (source.equals(target)) {
            return;
        }
        if (node instanceof SimDir && target.startsWith(source)) {
            throw new FileSystemException(from.toString(), to.toString(), "cannot move a directory into itself");
        }
        SimNode replaced = targetDir.get(Namespace.name(target));
        if (replaced instanceof SimDir replacedDir) {
            if (node instanceof SimFile) {
                throw new FileSystemException(from.toString(), to.toString(), "Is a directory");
            }
            if (!replacedDir.isEmpty()) {
                throw new DirectoryNotEmptyException(to.toString());
            }
        } else if (replaced != null && node instanceof SimDir) {
            throw new FileSystemException(from.toString(), to.toString(), "Not a directory");
        }
        long now = clockMs.getAsLong();
        sourceDir.unlink(Namespace.name(source), now);
        targetDir.link(Namespace.name(target), node, now);
    }

    @Override
    public synchronized void delete(Path file) throws IOException {
        Path key = Namespace.key(file);
        if (key.getParent() == null || !(namespace.find(key.getParent()) instanceof SimDir dir)) {
            return;
        }
        SimNode node = dir.get(Namespace.name(key));
        if (node instanceof SimDir simDir && !simDir.isEmpty()) {
            throw new DirectoryNotEmptyException(file.toString());
        }
        if (node != null) {
            // Open handles keep the inode, so they stay readable (POSIX unlink semantics).
            dir.unlink(Namespace.name(key), clockMs.getAsLong());
        }
    }

    @Override
    public void fsyncDirectory(Path dir) throws IOException {
        SimNode node;
        long openedIn;
        synchronized (this) {
            node = namespace.find(Namespace.key(dir));
            if (node == null) {
                throw new NoSuchFileException(dir.toString());
            }
            openedIn = generation;
        }
        // Opening a file for reading and forcing it is a file fsync, as with java.nio.
        if (node instanceof SimDir simDir) {
            fsync(openedIn, simDir::makeDurable, true);
        } else {
            fsync(openedIn, ((SimFile) node)::makeDurable, false);
        }
    }

    @Override
    public synchronized boolean exists(Path file) {
        return namespace.find(Namespace.key(file)) != null;
    }

    @Override
    public synchronized boolean isDirectory(Path path) {
        return namespace.find(Namespace.key(path)) instanceof SimDir;
    }

    @Override
    public synchronized long lastModifiedMs(Path file) throws IOException {
        SimNode node = namespace.find(Namespace.key(file));
        if (node == null) {
            throw new NoSuchFileException(file.toString());
        }
        return node.modifiedMs();
    }

    // ---- crashes and faults, for tests ----

    /**
     * The machine loses power and the broker restarts: every open handle goes stale, names revert
     * to their directories' durable entries, and files to their durable bytes (plus, with torn
     * writes, part of their un-fsynced tail). The filesystem is usable again right after.
     */
    public synchronized void crash() {
        generation++;
        openHandles.clear();
        namespace.crash(random, options);
    }

    public synchronized SimOptions options() {
        return options;
    }

    public synchronized void setOptions(SimOptions options) {
        this.options = options;
    }

    /** Resizes the volume; writes that need space beyond it fail with ENOSPC. */
    public synchronized void setCapacityBytes(long capacityBytes) {
        options = options.withCapacityBytes(capacityBytes);
    }

    /** The next {@code count} fsyncs, of files or directories, fail with "fsync failed". */
    public synchronized void failNextFsyncs(int count) {
        faults.failNext(count);
    }

    /** From now on every fsync blocks, as a COMMIT to an unreachable NFS server does, until {@link #releaseFsyncs}. */
    public void hangFsyncs() {
        faults.hang();
    }

    /** Lets the hung fsyncs go on (they then succeed or fail as usual) and stops hanging new ones. */
    public void releaseFsyncs() {
        faults.release();
    }

    /** Waits until one more fsync is blocked by {@link #hangFsyncs}; false if none is within the timeout. */
    public boolean awaitHungFsync(long timeout, TimeUnit unit) throws InterruptedException {
        return faults.awaitHungFsync(timeout, unit);
    }

    // ---- counters ----

    /** Successful file fsyncs. */
    public synchronized long fsyncCount() {
        return fsyncCount;
    }

    /** Successful directory fsyncs, including those {@link #createDirectories} makes. */
    public synchronized long directoryFsyncCount() {
        return directoryFsyncCount;
    }

    /** Fsyncs, of files or directories, that failed. */
    public synchronized long failedFsyncCount() {
        return failedFsyncCount;
    }

    /** Bytes that writes stored, including the part a failing (ENOSPC) write got down. */
    public synchronized long bytesWritten() {
        return bytesWritten;
    }

    /** The simulated volume's capacity and what is left of it; unknown when it is unbounded. */
    @Override
    public synchronized Space space(Path dir) {
        long capacity = options.capacityBytes();
        if (capacity == Long.MAX_VALUE) {
            return Space.UNKNOWN;
        }
        return new Space(capacity, Math.max(0, capacity - usedBytes()));
    }

    /** Space in use: the bytes of every file a name or an open handle leads to. */
    public synchronized long usedBytes() {
        Set<SimFile> files = namespace.files();
        openHandles.forEach(handle -> files.add(handle.file()));
        long used = 0;
        for (SimFile file : files) {
            used += file.length();
        }
        return used;
    }

    // ---- file handle operations (SimHandle delegates here, for the lock and the faults) ----

    synchronized void write(SimHandle handle, ByteBuffer src, long position) throws IOException {
        checkUsable(handle);
        checkPosition(position);
        int count = src.remaining();
        if (position + count > Content.MAX_LENGTH) {
            throw new IOException("File too large");
        }
        int writable = writableLength(handle.file(), (int) position, count);
        if (writable > 0) {
            byte[] bytes = new byte[writable];
            src.get(bytes);
            handle.file().write((int) position, bytes, writable, clockMs.getAsLong());
            bytesWritten += writable;
        }
        if (writable < count) {
            throw new IOException("No space left on device");
        }
    }

    /**
     * How much of a write fits. A write that would cross the capacity stores nothing or a random
     * prefix of what fits — what a short write followed by ENOSPC leaves.
     */
    private int writableLength(SimFile file, int position, int count) {
        long capacity = options.capacityBytes();
        if (capacity == Long.MAX_VALUE) {
            return count; // the unbounded volume skips the walk over every file
        }
        long used = usedBytes();
        long growth = Math.max(0, (long) position + count - file.length());
        if (used + growth <= capacity) {
            return count;
        }
        long maxEnd = file.length() + Math.max(0, capacity - used);
        int fits = (int) Math.max(0, Math.min(count, maxEnd - position));
        return random.nextInt(fits + 1);
    }

    synchronized int read(SimHandle handle, ByteBuffer dst, long position) throws IOException {
        checkUsable(handle);
        checkPosition(position);
        if (!dst.hasRemaining()) {
            return 0;
        }
        if (position >= handle.file().length()) {
            return -1;
        }
        byte[] bytes = new byte[dst.remaining()];
        int n = handle.file().read((int) position, bytes, bytes.length);
        dst.put(bytes, 0, n);
        return n;
    }

    void force(SimHandle handle) throws IOException {
        synchronized (this) {
            checkUsable(handle);
        }
        fsync(handle.generation(), handle.file()::makeDurable, false);
    }

    synchronized long size(SimHandle handle) throws IOException {
        checkUsable(handle);
        return handle.file().length();
    }

    synchronized void truncate(SimHandle handle, long size) throws IOException {
        checkUsable(handle);
        if (size < 0) {
            throw new IllegalArgumentException("negative size: " + size);
        }
        if (size < handle.file().length()) {
            handle.file().truncate((int) size, clockMs.getAsLong());
        }
    }

    synchronized void close(SimHandle handle) {
        handle.markClosed();
        openHandles.remove(handle);
    }

    /** The one fsync path: hang (outside the lock), then fail or make durable, then count. */
    private void fsync(long openedIn, Runnable makeDurable, boolean directory) throws IOException {
        faults.awaitIfHung();
        synchronized (this) {
            if (openedIn != generation) {
                throw new IOException(STALE); // the crash came while this fsync hung
            }
            if (faults.shouldFail(random, options.fsyncFailureProbability())) {
                failedFsyncCount++;
                throw new IOException("fsync failed");
            }
            makeDurable.run();
            if (directory) {
                directoryFsyncCount++;
            } else {
                fsyncCount++;
            }
        }
    }

    private void checkUsable(SimHandle handle) throws IOException {
        if (handle.isClosed()) {
            throw new ClosedChannelException();
        }
        if (handle.generation() != generation) {
            throw new IOException(STALE);
        }
    }

    private static void checkPosition(long position) {
        if (position < 0) {
            throw new IllegalArgumentException("negative position: " + position);
        }
    }
}
