package io.kaas.application.log;

import io.kaas.application.metrics.BrokerMetrics;
import io.kaas.application.port.out.Clock;
import io.kaas.application.port.out.Filesystem;
import io.kaas.application.port.out.Filesystem.FileHandle;
import io.kaas.application.port.out.Scheduler;
import io.kaas.domain.log.SegmentName;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The broker's write-ahead journal ({@code KAAS_LOG_JOURNAL}): every batch a partition writes into its segment
 * (page cache only) is also appended here, and one fsync of this one file makes the batches of every partition
 * durable at once — instead of one fsync per partition file. A crash loses nothing acknowledged: the next start
 * writes the journal back into the segments ({@link JournalReplay}) before any partition opens.
 *
 * <p>The journal is a sequence of files {@code <seq>.journal}; the file appended to is closed when it is full or
 * has held entries for {@code rotateMs}, and the next one started. A closed file is retired when every partition
 * with entries in it has fsynced its segments past them (each partition's own committer does that fsync, as for a
 * roll), and then deleted — or kept as the spare the next file will be. Retirements run one at a time, oldest
 * file first, and ask one partition at a time: their segment fsyncs never crowd the device queue (or the I/O
 * threads) ahead of the journal's own fsync, which acknowledgements wait for. A file is
 * written over, not appended to, whenever a spare is ready: a retired full file, or at start one filled with
 * zeros in the background. An fsync then has no new file size to commit, only data, which halves the device
 * writes per round on ext4 (bench/FsyncShapes.java). Every entry names its file's sequence number, so what a
 * recycled file held before is never read as its own. A clean close leaves no file. Thread-safe: appends run under
 * their partition's lock and take this object's monitor briefly (a page-cache write); the fsync runs single-flight
 * on the I/O executor, never under a partition lock; retirement asks partitions for their fsync from the I/O
 * executor, never while an append holds a partition lock.
 */
final class LogJournal {
    private static final Logger LOG = LoggerFactory.getLogger(LogJournal.class);
    private static final String SUFFIX = ".journal";
    private static final String SPARE_SUFFIX = ".spare";
    private static final int ZERO_CHUNK = 1 << 20;

    /** One file of the journal and the partitions that wrote into it. */
    private static final class JournalFile {
        final long seq;
        final Path path;
        final FileHandle handle;
        /** Bytes the file held when it started: a write below them changes no file size. */
        final long capacity;
        long size;
        /** Bytes of this file below which an fsync completed. */
        long syncedSize;
        final Map<Path, GroupCommitter> writers = new HashMap<>();

        JournalFile(long seq, Path path, FileHandle handle, long capacity) {
            this.seq = seq;
            this.path = path;
            this.handle = handle;
            this.capacity = capacity;
        }
    }

    /** A file ready to be written over as the next journal file; its content is stale or zeros. */
    private record Spare(Path path, FileHandle handle, long capacity) {
    }

    private record Waiter(long end, CompletableFuture<Void> future) {
    }

    private final Filesystem fs;
    private final Path dir;
    private final Executor io;
    private final Scheduler scheduler;
    private final Clock clock;
    private final long fsyncMaxLatencyMs;
    private final long rotateBytes;
    private final long rotateMs;
    private final BrokerMetrics metrics;
    /** Held while forcing or closing files, so a retired file's handle never closes under an fsync. */
    private final Object forcing = new Object();

    // --- guarded by this ---
    /** Files not retired yet, oldest first; the last is the one appended to. */
    private final List<JournalFile> files = new ArrayList<>();
    /** Bytes appended over the journal's life (all files): an entry's end is its place in this sequence. */
    private long appended;
    private final ArrayDeque<Waiter> waiters = new ArrayDeque<>();
    private boolean syncing;
    private long synced;
    /** At most one: a retired file when none is waiting, otherwise deleted. */
    private Spare spare;
    private boolean preparingSpare;
    private long spareNames;
    /** Completes when the newest retirement did: the next one starts after it. */
    private CompletableFuture<Void> retirements = CompletableFuture.completedFuture(null);
    /** Why the journal broke; written under the monitor, read lock-free by every append's refusal check. */
    private volatile String failure;

    /**
     * Starts an empty journal in {@code dir} (after {@link JournalReplay} emptied it), and fills a spare with zeros
     * in the background. A crashed run's spares are deleted, not reused: their entries may name the sequence
     * numbers this run starts again at.
     *
     * @param rotateBytes a file this large is closed and the next one started
     * @param rotateMs    so is a file that has held entries this long, unless an older one is still retiring
     */
    LogJournal(Filesystem fs, Path dir, long firstSeq, Executor io, Scheduler scheduler, Clock clock,
               long fsyncMaxLatencyMs, long rotateBytes, long rotateMs, BrokerMetrics metrics) throws IOException {
        this.fs = fs;
        this.dir = dir;
        this.io = io;
        this.scheduler = scheduler;
        this.clock = clock;
        this.fsyncMaxLatencyMs = fsyncMaxLatencyMs;
        this.rotateBytes = rotateBytes;
        this.rotateMs = rotateMs;
        this.metrics = metrics;
        fs.createDirectories(dir);
        deleteSpares();
        startFile(firstSeq);
        prepareSpare();
    }

    static Path fileName(Path dir, long seq) {
        return dir.resolve(String.format(Locale.ROOT, "%020d", seq) + SUFFIX);
    }

    /** The sequence number of a journal file name; -1 for any other name. */
    static long seqOf(String fileName) {
        if (!fileName.endsWith(SUFFIX)) {
            return -1L;
        }
        try {
            return Long.parseLong(fileName.substring(0, fileName.length() - SUFFIX.length()));
        } catch (NumberFormatException e) {
            return -1L;
        }
    }

    // ------------------------------------------------------------------------------------------ appends

    /** Where an appended entry lies: its file and position there, and where it ends in the journal. */
    record Appended(JournalFile file, long position, JournalEntry entry, long end) {
    }

    /**
     * Appends the batch a partition is about to write at {@code position} of {@code segment} (its base offset and
     * leader epoch already stamped), for {@link #durableThrough} its end. Under the partition's lock. If the segment
     * write then fails, {@link #voidEntry} must follow, under the same hold of the lock.
     */
    Appended append(GroupCommitter writer, Path partitionDir, SegmentName segment, int position, ByteBuffer batch)
            throws IOException {
        JournalEntry entry = JournalEntry.batch(partitionDir, segment, position, batch.duplicate());
        Appended appended;
        synchronized (this) {
            if (failure != null) {
                throw new IOException(failure);
            }
            if (current().capacity == 0 && spare != null && !rotate()) { // the first file, or one started
                throw new IOException(failure);                            // while no spare was ready
            }
            JournalFile file = current();
            long at = file.size;
            try {
                appended = new Appended(file, at, entry, write(file, entry));
            } catch (IOException e) {
                failLater("cannot write the log journal: " + e.getMessage());
                throw e;
            }
            file.writers.put(partitionDir, writer);
            if (file.size >= rotateBytes) {
                rotate(); // if it fails, this entry is written: its append goes on (the segment write must match)
            } else if (file.size >= rotateBytes / 2) {
                prepareSpare(); // in case no retired file becomes one in time
            }
        }
        return appended;
    }

    /**
     * Under the monitor: starts the next file and has the one it replaces retired; false (the journal broken for
     * every later append) if the next one could not start.
     */
    private boolean rotate() {
        JournalFile replaced = current();
        try {
            startFile(replaced.seq + 1);
        } catch (IOException e) {
            failLater("cannot start the next log journal file: " + e.getMessage());
            return false;
        }
        retirements = retirements.thenComposeAsync(previous -> retire(replaced), io);
        return true;
    }

    /** Under the monitor: closes {@code file} once it has held entries for {@code rotateMs}, if it is still open. */
    private void rotateWhenAged(JournalFile file) {
        scheduler.schedule(() -> io.execute(() -> {
            synchronized (this) {
                if (failure != null || current() != file) {
                    return;
                }
                if (files.size() > 1) {
                    rotateWhenAged(file); // the retirements are behind: no more of them until they catch up
                } else {
                    rotate();
                }
            }
        }), rotateMs);
    }

    /**
     * The segment write of an appended batch failed: overwrites its entry in place with a void one, so no replay
     * brings back a batch the log refused. Its file cannot have been retired meanwhile: retiring needs the
     * partition's segment fsync, which needs the lock the caller holds. If even this write fails the journal
     * breaks (every partition's appends fail from then on).
     */
    void voidEntry(Appended appended) throws IOException {
        synchronized (this) {
            try {
                appended.file().handle.write(appended.entry().voided().header(appended.file().seq),
                        appended.position());
            } catch (IOException e) {
                failLater("cannot void a log journal entry: " + e.getMessage());
                throw e;
            }
        }
    }

    /**
     * The partition's directory is about to be deleted: a durable tombstone first, so a restart never writes its
     * journaled batches into a directory a re-created topic of the same name has made. Runs the fsync itself
     * (on the caller's thread: the caller is deleting files). Nothing to do if no live file holds its batches.
     */
    void forget(Path partitionDir) throws IOException {
        long end;
        synchronized (this) {
            if (files.stream().noneMatch(f -> f.writers.containsKey(partitionDir))) {
                return;
            }
            for (JournalFile f : files) {
                f.writers.remove(partitionDir);
            }
            end = write(current(), JournalEntry.tombstone(partitionDir));
        }
        syncNow(end);
    }

    /** Under the monitor; the journal offset the entry ends at. */
    private long write(JournalFile file, JournalEntry entry) throws IOException {
        if (file.size == 0) {
            rotateWhenAged(file);
        }
        ByteBuffer header = entry.header(file.seq);
        int length = header.remaining() + entry.batch().remaining();
        file.handle.write(header, file.size);
        file.handle.write(entry.batch().duplicate(), file.size + header.limit());
        file.size += length;
        appended += length;
        return appended;
    }

    private JournalFile current() {
        return files.get(files.size() - 1);
    }

    /** Under the monitor (or from the constructor): the spare renamed if one is ready, a new empty file if not. */
    private void startFile(long seq) throws IOException {
        Path path = fileName(dir, seq);
        Spare reused = spare;
        spare = null;
        FileHandle handle = reused == null ? fs.open(path, true) : reused.handle();
        try {
            if (reused == null) {
                handle.truncate(0);
            } else {
                fs.rename(reused.path(), path);
            }
            fs.fsyncDirectory(dir); // an acknowledgement may rest on this file: its name must survive a crash
        } catch (IOException e) {
            handle.close();
            throw e;
        }
        files.add(new JournalFile(seq, path, handle, reused == null ? 0 : reused.capacity()));
    }

    // ------------------------------------------------------------------------------------------ spares

    private static boolean isSpare(String fileName) {
        return fileName.endsWith(SPARE_SUFFIX);
    }

    /** Under the monitor. */
    private Path spareName() {
        return dir.resolve(String.format(Locale.ROOT, "%020d", spareNames++) + SPARE_SUFFIX);
    }

    private void deleteSpares() throws IOException {
        for (String name : fs.list(dir)) {
            if (isSpare(name)) {
                fs.deleteDurably(dir.resolve(name));
            }
        }
    }

    /** Under the monitor (or from the constructor): fills a spare with zeros on the I/O executor, unless one is. */
    private void prepareSpare() {
        if (spare != null || preparingSpare || failure != null) {
            return;
        }
        preparingSpare = true;
        Path path = spareName();
        io.execute(() -> fillWithZeros(path));
    }

    private void fillWithZeros(Path path) {
        Spare filled = null;
        FileHandle handle = null;
        try {
            handle = fs.open(path, true);
            ByteBuffer zeros = ByteBuffer.allocate((int) Math.min(ZERO_CHUNK, rotateBytes));
            long capacity = 0;
            while (capacity < rotateBytes) {
                handle.write(zeros.clear(), capacity);
                capacity += zeros.capacity();
            }
            handle.force();
            filled = new Spare(path, handle, capacity);
        } catch (IOException e) {
            LOG.warn("cannot fill a spare log journal file {} ({}): the next file starts empty", path, e.getMessage());
            discard(handle, path);
        }
        synchronized (this) {
            preparingSpare = false;
        }
        if (filled != null) {
            offer(filled);
        }
    }

    /** Keeps {@code candidate} as the spare unless there is one already or the journal is closed or broken. */
    private void offer(Spare candidate) {
        synchronized (this) {
            if (spare == null && failure == null) {
                spare = candidate;
                return;
            }
        }
        discard(candidate.handle(), candidate.path());
    }

    /** Closes and deletes a file the journal has no use for; a leftover is deleted by the next start. */
    private void discard(FileHandle handle, Path path) {
        try {
            if (handle != null) {
                handle.close();
            }
            fs.delete(path);
        } catch (IOException e) {
            LOG.warn("cannot delete {} ({}); the next start does", path, e.getMessage());
        }
    }

    // ------------------------------------------------------------------------------------------ durability

    /** Completes once an fsync covers the journal through {@code end}; fails if the journal broke. */
    CompletionStage<Void> durableThrough(long end) {
        CompletableFuture<Void> waiter;
        synchronized (this) {
            if (failure != null) {
                return CompletableFuture.failedFuture(new IOException(failure));
            }
            if (synced >= end) {
                return CompletableFuture.completedFuture(null);
            }
            waiter = new CompletableFuture<>();
            waiters.addLast(new Waiter(end, waiter));
            if (syncing) {
                return waiter;
            }
            syncing = true;
        }
        io.execute(this::syncUntilIdle);
        return waiter;
    }

    /** Everything appended so far, for a caller that must wait for all of it. */
    synchronized long end() {
        return appended;
    }

    /** Why the journal broke (a write or an fsync failed or hung), or null; lock-free. */
    String failure() {
        return failure;
    }

    private void syncUntilIdle() {
        while (true) {
            long target;
            synchronized (this) {
                if (failure != null || synced >= appended) {
                    syncing = false;
                    return;
                }
                target = appended;
            }
            if (!syncThrough(target)) {
                return;
            }
        }
    }

    /** Forces every file with unsynced bytes (oldest first), then completes the waiters it covered. */
    private boolean syncThrough(long target) {
        synchronized (forcing) {
            return forceThrough(target);
        }
    }

    private boolean forceThrough(long target) {
        List<JournalFile> dirty = new ArrayList<>();
        List<Long> sizes = new ArrayList<>();
        synchronized (this) {
            for (JournalFile f : files) {
                if (f.size > f.syncedSize) {
                    dirty.add(f);
                    sizes.add(f.size);
                }
            }
        }
        Scheduler.Cancellable watchdog = scheduler.schedule(() -> fail("an fsync of the log journal took longer than "
                + fsyncMaxLatencyMs + " ms"), fsyncMaxLatencyMs);
        long started = metrics.nanoTime();
        try {
            for (JournalFile f : dirty) {
                f.handle.force();
            }
        } catch (IOException | RuntimeException e) {
            fail("fsync of the log journal failed: " + e.getMessage());
            return false;
        } finally {
            watchdog.cancel();
        }
        metrics.journalFsyncNanos().record(metrics.nanoTime() - started);
        List<Waiter> done = new ArrayList<>();
        synchronized (this) {
            if (failure != null) {
                return false; // the watchdog fired meanwhile and failed the waiters
            }
            for (int i = 0; i < dirty.size(); i++) {
                dirty.get(i).syncedSize = Math.max(dirty.get(i).syncedSize, sizes.get(i));
            }
            synced = Math.max(synced, target);
            while (!waiters.isEmpty() && waiters.peekFirst().end <= synced) {
                done.add(waiters.pollFirst());
            }
        }
        done.forEach(w -> w.future.complete(null));
        if (!done.isEmpty()) {
            metrics.groupCommitAppends().record(done.size());
        }
        return true;
    }

    /** An fsync on the caller's thread through {@code end}, for {@link #forget}. */
    private void syncNow(long end) throws IOException {
        if (!syncThrough(end)) {
            throw new IOException("cannot make the log journal durable: " + failure());
        }
    }

    /** {@link #fail} from under the monitor: the waiters it fails are completed on the I/O executor. */
    private void failLater(String reason) {
        failure = reason;
        io.execute(() -> fail(reason));
    }

    /** Sticky: every waiter fails, and so does every later append and wait. */
    private void fail(String reason) {
        List<Waiter> failed;
        synchronized (this) {
            if (failure == null) {
                failure = reason;
            }
            syncing = false;
            failed = new ArrayList<>(waiters);
            waiters.clear();
        }
        LOG.error("{}: every partition's acks=-1 appends fail from now on", reason);
        IOException cause = new IOException(reason);
        failed.forEach(w -> w.future.completeExceptionally(cause));
    }

    // ------------------------------------------------------------------------------------------ retirement

    /**
     * Deletes a closed file once every partition that wrote into it has fsynced its own segments past what it
     * wrote; a partition that cannot (stalled) keeps the file, for the next start to replay. On the I/O executor;
     * the stage completes (never exceptionally) when the file is dealt with.
     */
    private CompletableFuture<Void> retire(JournalFile file) {
        List<GroupCommitter> writers;
        synchronized (this) {
            writers = List.copyOf(file.writers.values());
        }
        return flushInTurn(writers, 0).handleAsync((ok, failed) -> {
            if (failed != null) {
                LOG.warn("keeping {}: a partition could not make its segments durable ({}); the next start replays it",
                        file.path, failed.getMessage());
            } else {
                delete(file);
            }
            return null;
        }, io);
    }

    /** One partition's segment fsync at a time, each asked for on the I/O executor (never under a partition lock). */
    private CompletableFuture<Void> flushInTurn(List<GroupCommitter> writers, int next) {
        if (next == writers.size()) {
            return CompletableFuture.completedFuture(null);
        }
        return writers.get(next).flushSegments(clock.nowMs()).toCompletableFuture()
                .thenComposeAsync(flushed -> flushInTurn(writers, next + 1), io);
    }

    /**
     * Its partitions' segments now hold what it held: a waiter on its bytes is served by them. A file of full
     * capacity (filled, or a spare written over) becomes the spare if none is waiting (a crash before that rename
     * is durable leaves it to be replayed again: harmless, as for a delete that did not reach the disk).
     */
    private void delete(JournalFile file) {
        synchronized (forcing) {
            Path spareName = null;
            synchronized (this) {
                if (!files.remove(file)) {
                    return; // closed meanwhile
                }
                if (spare == null && failure == null && Math.max(file.capacity, file.size) >= rotateBytes) {
                    spareName = spareName();
                }
            }
            try {
                if (spareName != null) {
                    fs.rename(file.path, spareName);
                    offer(new Spare(spareName, file.handle, Math.max(file.capacity, file.size)));
                } else {
                    file.handle.close();
                    fs.deleteDurably(file.path);
                }
            } catch (IOException e) {
                LOG.warn("cannot delete the retired log journal file {}; the next start replays it", file.path, e);
                discard(file.handle, file.path);
            }
        }
    }

    /**
     * Closes the files, deleting them when {@code partitionsDurable}: every partition closed cleanly (fsynced
     * everything), so the journal holds nothing the segments lack; otherwise the next start replays them.
     */
    void close(boolean partitionsDurable) {
        synchronized (forcing) {
            List<JournalFile> all;
            Spare unused;
            synchronized (this) {
                all = List.copyOf(files);
                files.clear();
                if (failure == null) {
                    failure = "the log journal is closed";
                }
                unused = spare;
                spare = null;
            }
            if (unused != null) {
                discard(unused.handle(), unused.path());
            }
            for (JournalFile f : all) {
                try {
                    f.handle.close();
                    if (partitionsDurable) {
                        fs.deleteDurably(f.path);
                    }
                } catch (IOException e) {
                    LOG.warn("cannot delete the log journal file {}; the next start replays it", f.path, e);
                }
            }
        }
    }
}
