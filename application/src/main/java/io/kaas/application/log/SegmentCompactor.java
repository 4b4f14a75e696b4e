package io.kaas.application.log;

import io.kaas.application.port.out.CompactionRecords;
import io.kaas.application.port.out.Filesystem;
import io.kaas.application.port.out.Filesystem.FileHandle;
import io.kaas.application.port.out.Pacer;
import io.kaas.domain.batch.RecordBatchHeader;
import io.kaas.domain.compaction.CleanableRange;
import io.kaas.domain.compaction.CleanedTransactions;
import io.kaas.domain.compaction.CompactionFilter;
import io.kaas.domain.compaction.KeyOffsetMap;
import io.kaas.domain.compaction.OffsetMapBuilder;
import io.kaas.domain.idempotence.BatchMetadata;
import io.kaas.domain.idempotence.ProducerStateTable;
import io.kaas.domain.idempotence.ProducerWindow;
import io.kaas.domain.log.AbortedTxn;
import io.kaas.domain.log.SegmentIndex;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Compacts a disk partition's closed segments, as Apache's cleaner does one log: from the dirty
 * part it builds the offset map (each key's latest offset), then rewrites every closed segment from
 * the log start up to where the map reaches, in groups that fit one segment, keeping what the
 * {@link CompactionFilter} keeps; offsets and batch metadata are preserved, so the log just has
 * gaps. The new segments (log, offset and time index, transaction index) are written under
 * {@code .cleaned} names and fsynced, then swapped in by {@link CleaningSwapFiles}: a crash leaves
 * the old segments or the new ones, never a mix.
 *
 * <p>Runs on the cleaner's thread, never under the partition lock while it reads or writes
 * segments: closed segments are immutable, so appends and fetches go on. Only the swap takes the
 * I/O lock (a few renames and fsyncs) and, briefly, the partition lock to replace the segments in
 * the list; a swap whose segments retention or DeleteRecords removed meanwhile is dropped.
 * Readers holding an older snapshot keep reading the old files until {@code file.delete.delay.ms}.
 */
final class SegmentCompactor {
    private static final Logger LOG = LoggerFactory.getLogger(SegmentCompactor.class);
    /** Bytes of whole batches handed to the record port at a time ({@code log.cleaner.io.buffer.size}-like). */
    static final int CHUNK_BYTES = 1024 * 1024;

    private final DiskPartitionContext partition;
    private final DiskSegments segments;
    private final GroupCommitter committer;
    private final ProducerStateTable producers;
    /** Where the last cleaning stopped (-1: never cleaned); only the cleaner's thread changes it. */
    private volatile long checkpoint;

    SegmentCompactor(DiskPartitionContext partition, DiskSegments segments, GroupCommitter committer,
                     ProducerStateTable producers, long checkpoint) {
        this.partition = partition;
        this.segments = segments;
        this.committer = committer;
        this.producers = producers;
        this.checkpoint = checkpoint;
    }

    /** What a cleaning sees, sampled under the partition lock. */
    private record Sample(List<Segment> closed, long uncleanableBase, long logStart, long logEnd,
                          OptionalLong firstUnstable, Map<Long, CompactionFilter.LastRecord> activeProducers,
                          List<AbortedTxn> aborted) {
    }

    /** The dirty part of the log and whether cleaning it is due; empty for a closed log. */
    java.util.Optional<CleanableRange> cleanableRange(LogConfig config, long nowMs) {
        Sample sample = sample();
        return sample == null ? java.util.Optional.empty() : java.util.Optional.of(range(sample, config, nowMs));
    }

    /**
     * Cleans the log if a cleaning is due; the bytes it cleaned (read), 0 when it did nothing.
     *
     * @param mapCapacity the most keys one cleaning's offset map holds
     */
    long clean(LogConfig config, CompactionRecords records, Pacer pacer, int mapCapacity, long nowMs)
            throws IOException, InterruptedException {
        Sample sample = sample();
        if (sample == null) {
            return 0;
        }
        CleanableRange range = range(sample, config, nowMs);
        if (!range.due(config.compaction())) {
            return 0;
        }
        KeyOffsetMap map = new KeyOffsetMap(mapCapacity);
        OffsetMapBuilder keys = new OffsetMapBuilder(map, new CleanedTransactions(sample.aborted), range.firstDirtyOffset(),
                range.firstUncleanableOffset());
        for (int i = 0; i < sample.closed.size() && !keys.stopped(); i++) {
            Segment segment = sample.closed.get(i);
            if (end(sample, i) > range.firstDirtyOffset() && segment.name.baseOffset() < range.firstUncleanableOffset()) {
                forEachChunk(segment, pacer, chunk -> {
                    records.readKeys(chunk, keys);
                    return !keys.stopped();
                });
            }
        }
        long mapEnd = map.latestOffset() + 1;
        if (mapEnd <= range.firstDirtyOffset()) {
            return 0; // not one dirty batch fitted
        }
        CompactionFilter filter = new CompactionFilter(map, new CleanedTransactions(sample.aborted),
                sample.activeProducers, nowMs);
        List<Cleaned> cleaned = new ArrayList<>();
        long bytesRead = 0;
        try {
            for (List<Segment> group : groups(sample, mapEnd, config.segmentBytes())) {
                cleaned.add(cleanGroup(group, records, filter, pacer, config, nowMs));
                bytesRead += group.stream().mapToLong(Segment::size).sum();
            }
            partition.fs().fsyncDirectory(partition.files().dir());
        } catch (IOException | RuntimeException | InterruptedException e) {
            discard(cleaned);
            throw e;
        }
        if (!swap(cleaned, mapEnd, config)) {
            return 0;
        }
        LOG.info("cleaned {} up to offset {}: {} segment(s), {} bytes into {} bytes, {} keys", partition.topicPartition(),
                mapEnd, cleaned.stream().mapToInt(c -> c.replaced.size()).sum(), bytesRead,
                cleaned.stream().mapToLong(c -> c.segment.size()).sum(), map.size());
        return bytesRead;
    }

    long checkpoint() {
        return checkpoint;
    }

    // ------------------------------------------------------------------------------------------ planning

    private Sample sample() {
        synchronized (partition.lock()) {
            if (segments.isClosed()) {
                return null;
            }
            List<Segment> all = segments.all();
            List<Segment> closed = new ArrayList<>();
            int i = 0;
            // the active segment, and those the committer is still sealing, are not the cleaner's
            while (i < all.size() - 1 && !committer.isSealing(all.get(i))) {
                closed.add(all.get(i++));
            }
            List<AbortedTxn> aborted = new ArrayList<>();
            for (Segment s : all) {
                for (int j = 0; j < s.aborted.size(); j++) {
                    aborted.add(s.aborted.get(j));
                }
            }
            Map<Long, CompactionFilter.LastRecord> active = new HashMap<>();
            for (ProducerWindow w : producers.windows()) {
                List<BatchMetadata> batches = w.batches();
                active.put(w.producerId(), new CompactionFilter.LastRecord(batches.isEmpty() ? OptionalLong.empty()
                        : OptionalLong.of(batches.get(batches.size() - 1).lastOffset()), w.epoch()));
            }
            return new Sample(List.copyOf(closed), all.get(i).name.baseOffset(), segments.logStartOffset(),
                    segments.endOffset(), producers.firstUnstableOffset(), active, aborted);
        }
    }

    private CleanableRange range(Sample sample, LogConfig config, long nowMs) {
        List<CleanableRange.SegmentSummary> summaries = sample.closed.stream()
                .map(s -> new CleanableRange.SegmentSummary(s.name.baseOffset(), s.size(), s.maxTimestamp(),
                        s.firstBatchTimestamp()))
                .toList();
        return CleanableRange.of(summaries, sample.uncleanableBase, sample.logStart, sample.logEnd, checkpoint,
                sample.firstUnstable, nowMs, config.compaction());
    }

    /** Where the i-th sampled segment's offsets end: the next one's base. */
    private static long end(Sample sample, int i) {
        return i + 1 < sample.closed.size() ? sample.closed.get(i + 1).name.baseOffset() : sample.uncleanableBase;
    }

    /**
     * The closed segments below {@code mapEnd}, oldest first, in groups that become one segment each:
     * at most {@code segment.bytes} together, and offsets the index's 32-bit relative offsets reach
     * (Apache's {@code groupSegmentsBySize}).
     */
    private static List<List<Segment>> groups(Sample sample, long mapEnd, int segmentBytes) {
        List<List<Segment>> groups = new ArrayList<>();
        List<Segment> group = new ArrayList<>();
        long size = 0;
        for (int i = 0; i < sample.closed.size() && sample.closed.get(i).name.baseOffset() < mapEnd; i++) {
            Segment s = sample.closed.get(i);
            boolean fits = !group.isEmpty() && size + s.size() <= segmentBytes
                    && end(sample, i) - 1 - group.get(0).name.baseOffset() <= Integer.MAX_VALUE;
            if (!group.isEmpty() && !fits) {
                groups.add(group);
                group = new ArrayList<>();
                size = 0;
            }
            group.add(s);
            size += s.size();
        }
        if (!group.isEmpty()) {
            groups.add(group);
        }
        return groups;
    }

    // ------------------------------------------------------------------------------------------ rewriting

    /** A group's new segment, written and fsynced under {@code .cleaned} names, and what it replaces. */
    private record Cleaned(Segment segment, List<Segment> replaced) {
    }

    private Cleaned cleanGroup(List<Segment> group, CompactionRecords records, CompactionFilter filter, Pacer pacer,
                               LogConfig config, long nowMs) throws IOException, InterruptedException {
        PartitionFiles files = partition.files();
        Filesystem fs = partition.fs();
        Segment first = group.get(0);
        FileHandle log = fs.open(PartitionFiles.cleaned(files.log(first.name)), true);
        log.truncate(0); // an earlier attempt's leftover
        Segment cleaned = new Segment(first.name, log, new SegmentIndex(), config.indexIntervalBytes(), nowMs);
        Set<Long> keptMarkers = new HashSet<>();
        try {
            for (Segment old : group) {
                forEachChunk(old, pacer, chunk -> {
                    ByteBuffer kept = records.filter(partition.topicPartition(), chunk, filter, nowMs,
                            config.compaction().deleteRetentionMs());
                    append(cleaned, kept, keptMarkers);
                    pacer.pace(kept.remaining());
                    return true;
                });
            }
            cleaned.txnIndex = fs.open(PartitionFiles.cleaned(files.txnIndex(first.name)), true);
            cleaned.txnIndex.truncate(0);
            for (Segment old : group) {
                for (int i = 0; i < old.aborted.size(); i++) {
                    AbortedTxn entry = old.aborted.get(i);
                    if (keptMarkers.contains(entry.lastOffset())) {
                        cleaned.addAborted(entry); // its marker stays, so read_committed still needs it
                    }
                }
            }
            cleaned.force();
            writeFile(PartitionFiles.cleaned(files.index(first.name)), cleaned.index.view().indexBytes());
            writeFile(PartitionFiles.cleaned(files.timeIndex(first.name)), cleaned.index.view().timeIndexBytes());
        } catch (IOException | RuntimeException | InterruptedException e) {
            discard(List.of(new Cleaned(cleaned, group)));
            throw e;
        }
        return new Cleaned(cleaned, List.copyOf(group));
    }

    /** Appends kept batches to the new segment, indexing them as an append would. */
    private static void append(Segment cleaned, ByteBuffer kept, Set<Long> keptMarkers) throws IOException {
        int position = cleaned.size();
        cleaned.log.write(kept.duplicate(), position);
        for (int at = kept.position(); at < kept.limit(); ) {
            RecordBatchHeader header = RecordBatchHeader.at(kept, at);
            if (header.isControlBatch()) {
                keptMarkers.add(header.baseOffset());
            }
            cleaned.added(position + at - kept.position(), header);
            at += header.sizeInBytes();
        }
    }

    /** A chunk of whole batches; false stops the walk. */
    @FunctionalInterface
    private interface ChunkVisitor {
        boolean chunk(ByteBuffer batches) throws IOException, InterruptedException;
    }

    /** Reads a closed segment in chunks of whole batches of about {@link #CHUNK_BYTES} (at least one batch). */
    private static void forEachChunk(Segment segment, Pacer pacer, ChunkVisitor visitor)
            throws IOException, InterruptedException {
        int position = 0;
        int size = segment.size();
        while (position < size) {
            int from = position;
            int[] to = {from};
            new BatchScanner(segment.log).scan(from, size, -1, Long.MAX_VALUE, false, (at, header) -> {
                if (at > from && at + header.sizeInBytes() - from > CHUNK_BYTES) {
                    return false;
                }
                to[0] = at + header.sizeInBytes();
                return true;
            });
            if (to[0] == from) {
                throw new IOException("unreadable batch at position " + from + " of " + segment.name.logFile());
            }
            pacer.pace(to[0] - from);
            if (!visitor.chunk(read(segment.log, from, to[0] - from))) {
                return;
            }
            position = to[0];
        }
    }

    private static ByteBuffer read(FileHandle file, long position, int length) throws IOException {
        ByteBuffer bytes = ByteBuffer.allocate(length);
        while (bytes.hasRemaining()) {
            if (file.read(bytes, position + bytes.position()) < 0) {
                throw new EOFException("the segment ends inside a batch at " + position);
            }
        }
        return bytes.flip();
    }

    private void writeFile(Path path, ByteBuffer content) throws IOException {
        try (FileHandle handle = partition.fs().open(path, true)) {
            handle.truncate(0);
            handle.write(content, 0);
            handle.force();
        }
    }

    // ------------------------------------------------------------------------------------------ the swap

    /**
     * Decides and completes the swap under the I/O lock, then puts the new segments in the list;
     * false, discarding the cleaned files, when the log closed, was taken over, or lost some of the
     * segments meanwhile.
     */
    private boolean swap(List<Cleaned> cleaned, long mapEnd, LogConfig config) throws IOException {
        partition.ioLock().lock();
        try {
            synchronized (partition.lock()) {
                List<Segment> all = segments.all();
                boolean intact = !segments.isClosed() && cleaned.stream()
                        .allMatch(c -> all.containsAll(c.replaced) && !all.get(all.size() - 1).equals(c.replaced.get(c.replaced.size() - 1)));
                if (!intact) {
                    discard(cleaned);
                    return false;
                }
            }
            if (partition.fence().check()) {
                discard(cleaned);
                return false; // the segments are the new leader's
            }
            PartitionState.CleaningSwap decided = new PartitionState.CleaningSwap(mapEnd, cleaned.stream()
                    .map(c -> new PartitionState.CleaningSwap.Group(c.segment.name.stem(),
                            c.replaced.stream().map(s -> s.name.stem()).toList()))
                    .toList());
            try {
                partition.writeJson(partition.files().cleaningSwap(), decided);
            } catch (IOException e) {
                discard(cleaned); // undecided (a torn swap file is never read: it is written atomically)
                throw e;
            }
            try {
                CleaningSwapFiles.complete(partition.fs(), partition.codec(), partition.files(), decided);
            } catch (IOException e) {
                // Decided but half done: the list no longer matches the files. Stop the partition; its next
                // open completes the swap from the swap file.
                committer.stall("swapping cleaned segments of " + partition.topicPartition() + " failed: "
                        + e.getMessage());
                throw e;
            }
            checkpoint = mapEnd;
            List<Segment> replaced = new ArrayList<>();
            synchronized (partition.lock()) {
                for (Cleaned c : cleaned) {
                    // the files are swapped; only a close since could make this fail, and then the list is dropped anyway
                    if (segments.replace(c.replaced, c.segment)) {
                        replaced.addAll(c.replaced);
                    }
                }
                segments.republish();
            }
            // Readers holding an older snapshot may still read the replaced segments: their handles stay open a while.
            partition.scheduler().schedule(() -> replaced.forEach(DiskSegments::closeQuietly), config.fileDeleteDelayMs());
            return true;
        } finally {
            partition.ioLock().unlock();
        }
    }

    /** Removes an undecided cleaning's files (recovery removes what this cannot). */
    private void discard(List<Cleaned> cleaned) {
        for (Cleaned c : cleaned) {
            DiskSegments.closeQuietly(c.segment);
            try {
                for (Path file : partition.files().segmentFiles(c.segment.name)) {
                    partition.fs().delete(PartitionFiles.cleaned(file));
                }
            } catch (IOException e) {
                LOG.warn("could not remove the cleaned files of {}; the next open does", partition.topicPartition(), e);
            }
        }
    }
}
