package io.kaas.application.log;

import io.kaas.application.port.out.Filesystem;
import io.kaas.application.port.out.Filesystem.FileHandle;
import io.kaas.application.port.out.JsonCodec;
import io.kaas.domain.batch.ControlBatch;
import io.kaas.domain.batch.RecordBatchHeader;
import io.kaas.domain.idempotence.CompletedTransaction;
import io.kaas.domain.idempotence.ProducerStateTable;
import io.kaas.domain.log.AbortedTxn;
import io.kaas.domain.log.SegmentIndex;
import io.kaas.domain.log.SegmentName;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * Opens a partition's directory and brings it to a state safe to append to, trusting the log over
 * the manifest:
 *
 * <ol>
 * <li>Segments are walked in offset order; each must start where the previous ended. Closed
 * segments reuse their index files and scan only past the last entry (a deposed leader may have
 * written beyond the next segment's base: the scan stops there). The active segment's index is
 * trusted only below the recovery checkpoint.</li>
 * <li>Scans verify every batch's CRC32C and stop at the first short, impossible, out-of-sequence or
 * corrupt batch; the torn tail is truncated before any write, and segments after a gap are dropped
 * (nothing there was acknowledged: an acks=-1 answer waits for an fsync covering every earlier segment).</li>
 * <li>Producer state (dedupe windows, transactions in progress) is the snapshot plus a replay of the
 * batch headers after it; the replayed ABORT markers rebuild the aborted-transaction indexes past
 * the snapshot.</li>
 * <li>Opening with a newer epoch than the one on the volume first writes the manifest with it (the
 * fence a deposed leader reads), then recovers; the fresh segment it starts is stamped with it.</li>
 * <li>The manifest is rewritten with the recovered state.</li>
 * </ol>
 */
final class PartitionRecovery {

    /** What a partition log starts from. */
    record Recovered(List<Segment> segments, ProducerStateTable producers, int epoch, long logStartOffset,
                     long checkpointedPosition, long cleanerCheckpoint) {
    }

    private final Filesystem fs;
    private final JsonCodec codec;
    private final PartitionFiles files;
    private final LogConfig config;
    /** Segments starting below it may have been rewritten by the log cleaner: their offsets may have gaps. */
    private long cleanedThrough = -1L;

    PartitionRecovery(Filesystem fs, JsonCodec codec, PartitionFiles files, LogConfig config) {
        this.fs = fs;
        this.codec = codec;
        this.files = files;
        this.config = config;
    }

    /**
     * @param exactEpoch refuse (an IOException) when a newer leader fenced the files already, rather than go on at
     *                   its epoch: a move's open of its own copy, which must never run a newer leader's recovery
     */
    Recovered open(int requestedEpoch, boolean exactEpoch, long nowMs) throws IOException {
        fs.createDirectories(files.dir());
        Optional<PartitionState.Manifest> fenced = read(files.manifest(), PartitionState.Manifest.class);
        if (exactEpoch && fenced.isPresent() && fenced.get().epoch() > requestedEpoch) {
            throw new IOException(files.dir() + " was taken over at leader epoch " + fenced.get().epoch()
                    + "; not opening it at epoch " + requestedEpoch);
        }
        // first: a cleaning's swap is completed or undone before any segment is read
        cleanedThrough = CleaningSwapFiles.recover(fs, codec, files);
        Optional<PartitionState.Manifest> manifest = read(files.manifest(), PartitionState.Manifest.class);
        List<SegmentName> names = dropWhollyBelow(segmentNames(),
                manifest.map(PartitionState.Manifest::logStartOffset).orElse(0L));
        int epoch = requestedEpoch;
        epoch = Math.max(epoch, manifest.map(PartitionState.Manifest::epoch).orElse(0));
        for (SegmentName name : names) {
            epoch = Math.max(epoch, name.epoch());
        }
        int fencedEpoch = manifest.map(PartitionState.Manifest::epoch).orElse(-1);
        if (epoch > fencedEpoch && !names.isEmpty()) {
            // A takeover fences before it reads: a deposed leader that still sees the old epoch after its
            // fsync has written bytes this recovery will find; one that sees this one acknowledges nothing more.
            fs.writeAtomically(files.manifest(), codec.encode(new PartitionState.Manifest(epoch,
                    manifest.map(PartitionState.Manifest::highWatermark).orElse(0L),
                    manifest.map(PartitionState.Manifest::logStartOffset).orElse(0L))));
        }
        Optional<PartitionState.Checkpoint> checkpoint = read(files.checkpoint(), PartitionState.Checkpoint.class);
        List<Segment> segments = recoverSegments(names, checkpoint, nowMs);
        forceUnproven(segments, checkpoint);
        if (segments.isEmpty()) {
            long base = manifest.map(m -> Math.max(m.highWatermark(), m.logStartOffset())).orElse(0L);
            segments.add(createSegment(new SegmentName(epoch, base), nowMs));
        }
        Segment active = segments.get(segments.size() - 1);
        if (epoch > active.name.epoch()) {
            segments.add(createSegment(new SegmentName(epoch, active.nextOffset()), nowMs));
            if (active.isEmpty()) {
                segments.remove(active);
                deleteSegmentFiles(active);
            }
        }
        long logStart = Math.max(segments.get(0).name.baseOffset(),
                manifest.map(PartitionState.Manifest::logStartOffset).orElse(0L));
        Segment last = segments.get(segments.size() - 1);
        logStart = Math.min(logStart, last.nextOffset());
        ProducerStateTable producers = recoverProducers(segments);
        fs.writeAtomically(files.manifest(), codec.encode(new PartitionState.Manifest(epoch, last.nextOffset(), logStart)));
        long checkpointed = checkpoint
                .filter(c -> c.segment().equals(last.name.stem()) && c.bytePosition() <= last.size())
                .map(PartitionState.Checkpoint::bytePosition).orElse(0L);
        return new Recovered(segments, producers, epoch, logStart, checkpointed, cleanedThrough);
    }

    /**
     * The segments of the live log in offset order. Leaders only ever start segments after those of
     * the leaders before them, so epochs never decrease along the log; a file whose epoch is below
     * that of a segment before it was written by a deposed leader after the takeover (its late roll)
     * and is ignored, as is an older-epoch file at the same base offset as a newer one.
     */
    private List<SegmentName> segmentNames() throws IOException {
        Map<Long, SegmentName> byBase = new TreeMap<>();
        for (String file : fs.list(files.dir())) {
            SegmentName.parseLogFile(file).ifPresent(name -> byBase.merge(name.baseOffset(), name,
                    (a, b) -> a.epoch() >= b.epoch() ? a : b)); // same base offset: the newer leader's file wins
        }
        List<SegmentName> live = new ArrayList<>();
        int epochSoFar = 0;
        for (SegmentName name : byBase.values()) {
            if (name.epoch() >= epochSoFar) {
                live.add(name);
                epochSoFar = name.epoch();
            }
        }
        return live;
    }

    private List<Segment> recoverSegments(List<SegmentName> names, Optional<PartitionState.Checkpoint> checkpoint,
                                          long nowMs) throws IOException {
        List<Segment> segments = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            SegmentName name = names.get(i);
            boolean last = i == names.size() - 1;
            if (!segments.isEmpty() && !continues(segments.get(segments.size() - 1), name)) {
                dropFrom(names.subList(i, names.size()));
                break;
            }
            FileHandle handle = fs.open(files.log(name), false);
            long fileSize = handle.size();
            long trustedIndexBytes = last
                    ? checkpoint.filter(c -> c.segment().equals(name.stem())).map(c -> Math.min(c.bytePosition(), fileSize)).orElse(0L)
                    : fileSize;
            long stopAt = last ? Long.MAX_VALUE : names.get(i + 1).baseOffset();
            SegmentIndex index = loadIndex(name, trustedIndexBytes);
            Segment segment = new Segment(name, handle, index, config.indexIntervalBytes(), nowMs);
            boolean cleaned = cleaned(name);
            BatchScanner.End end = scan(segment, fileSize, cleaned, stopAt);
            if (index.size() > 0 && end.position() == index.lastPosition() && fileSize > end.position()) {
                // the loaded index points somewhere that is not the batch it names: rebuild it from the log
                segment = new Segment(name, handle, new SegmentIndex(), config.indexIntervalBytes(), nowMs);
                end = scan(segment, fileSize, cleaned, stopAt);
            }
            if (end.position() < fileSize && (last || end.nextOffset() < stopAt)) {
                handle.truncate(end.position()); // the torn tail: never append past unparseable bytes
                handle.force();
            }
            if (last && !segment.isEmpty() && !segment.firstBatchTimestampKnown()) {
                // resumed past its first batch: segment.ms measures from that batch's timestamp
                segment.firstBatchTimestamp(firstBatchTimestamp(handle));
            }
            segments.add(segment);
            if (!last && end.nextOffset() != stopAt && !cleaned) {
                dropFrom(names.subList(i + 1, names.size()));
                break;
            }
        }
        return segments;
    }

    /**
     * Fsyncs every recovered segment that no checkpoint proves durable. A crashed process's
     * un-fsynced writes stay readable (page cache, an NFS server's unstable writes) and the scan
     * accepts them, yet nothing made them durable; acknowledging new batches fsyncs only the active
     * segment, so a later power loss could cut a hole below acknowledged data, and recovery drops
     * everything after a hole. A checkpoint is written only once every segment before its own is
     * fsynced, and its own up to its byte position, so only what follows needs forcing.
     */
    private static void forceUnproven(List<Segment> segments, Optional<PartitionState.Checkpoint> checkpoint)
            throws IOException {
        Optional<SegmentName> checkpointed = checkpoint.flatMap(c -> SegmentName.parseLogFile(c.segment() + SegmentName.LOG_SUFFIX));
        long position = checkpoint.map(PartitionState.Checkpoint::bytePosition).orElse(0L);
        for (Segment segment : segments) {
            boolean proven = checkpointed.isPresent() && (segment.name.baseOffset() < checkpointed.get().baseOffset()
                    || segment.name.equals(checkpointed.get()) && segment.size() <= position);
            if (!proven && !segment.isEmpty()) {
                segment.log.force();
            }
        }
    }

    /**
     * Removes the segments wholly below the persisted log start - those the next segment starts at or
     * below - before anything scans them. A crash between DeleteRecords' manifest write and its
     * unlinks leaves them behind; and were a hole to follow one, the gap rule below would drop the
     * live log after it.
     */
    private List<SegmentName> dropWhollyBelow(List<SegmentName> names, long logStart) throws IOException {
        int first = 0;
        while (first + 1 < names.size() && names.get(first + 1).baseOffset() <= logStart) {
            first++;
        }
        if (first > 0) {
            dropFrom(names.subList(0, first));
        }
        return names.subList(first, names.size());
    }

    /** Whether the log cleaner may have rewritten the segment, leaving gaps in its offsets. */
    private boolean cleaned(SegmentName name) {
        return name.baseOffset() < cleanedThrough;
    }

    /** Whether {@code next} starts where {@code previous} ends, or after it when the cleaner left a gap there. */
    private boolean continues(Segment previous, SegmentName next) {
        return cleaned(previous.name) ? previous.nextOffset() <= next.baseOffset()
                : previous.nextOffset() == next.baseOffset();
    }

    /** Re-adds the segment's batches from its last index entry on, verifying each. */
    private static BatchScanner.End scan(Segment segment, long fileSize, boolean gapsAllowed, long stopAt)
            throws IOException {
        segment.resumeAtLastIndexEntry();
        return new BatchScanner(segment.log).scan(segment.size(), fileSize, segment.nextOffset(), gapsAllowed, stopAt,
                true,
                (position, header) -> {
                    segment.added(position, header);
                    return true;
                });
    }

    private static long firstBatchTimestamp(FileHandle log) throws IOException {
        ByteBuffer header = ByteBuffer.allocate(RecordBatchHeader.HEADER_SIZE);
        while (header.hasRemaining() && log.read(header, header.position()) >= 0) {
            // a positional read may return fewer bytes
        }
        return header.hasRemaining() ? -1L : RecordBatchHeader.at(header, 0).maxTimestamp();
    }

    private SegmentIndex loadIndex(SegmentName name, long trustedBytes) throws IOException {
        if (trustedBytes == 0) {
            return new SegmentIndex();
        }
        Optional<byte[]> index = fs.readAll(files.index(name));
        Optional<byte[]> timeIndex = fs.readAll(files.timeIndex(name));
        if (index.isEmpty() || timeIndex.isEmpty()) {
            return new SegmentIndex();
        }
        return SegmentIndex.read(ByteBuffer.wrap(index.get()), ByteBuffer.wrap(timeIndex.get()), trustedBytes);
    }

    /**
     * Producer state and aborted-transaction indexes: the snapshot, then a replay of the batch
     * headers after it (without a usable snapshot, of the whole log). Index entries of markers
     * before the replay point are trusted (a snapshot is written only once everything before it,
     * indexes included, is fsynced); the others are cut and rebuilt from the replayed markers.
     */
    private ProducerStateTable recoverProducers(List<Segment> segments) throws IOException {
        ProducerStateTable producers = new ProducerStateTable();
        long end = segments.get(segments.size() - 1).nextOffset();
        long from = segments.get(0).name.baseOffset();
        Optional<PartitionState.ProducerSnapshot> snapshot = read(files.producerSnapshot(), PartitionState.ProducerSnapshot.class)
                .filter(s -> s.offset() >= from && s.offset() <= end);
        if (snapshot.isPresent()) {
            producers.restore(snapshot.get().windows());
        }
        long replayFrom = snapshot.map(PartitionState.ProducerSnapshot::offset).orElse(from);
        Set<Segment> rebuilt = new HashSet<>();
        for (Segment segment : segments) {
            if (loadTxnIndex(segment, replayFrom)) {
                rebuilt.add(segment);
            }
        }
        for (Segment segment : segments) {
            if (segment.nextOffset() <= replayFrom) {
                continue;
            }
            int start = segment.index.view().floorPosition(Math.max(0, replayFrom - segment.name.baseOffset()));
            new BatchScanner(segment.log).scan(start, segment.size(), -1, Long.MAX_VALUE, false, (position, header) -> {
                if (header.baseOffset() < replayFrom) {
                    return true;
                }
                if (header.isControlBatch()) {
                    replayMarker(segment, position, header, producers, rebuilt);
                } else {
                    producers.record(header, header.baseOffset(), header.maxTimestamp());
                }
                return true;
            });
        }
        for (Segment segment : rebuilt) {
            segment.txnIndex.force();
        }
        return producers;
    }

    /**
     * Opens a segment's {@code .txnindex}, keeping the entries of markers before {@code replayFrom}
     * (and inside the recovered segment) and cutting the rest; true if the file changed.
     */
    private boolean loadTxnIndex(Segment segment, long replayFrom) throws IOException {
        Path path = files.txnIndex(segment.name);
        Optional<byte[]> bytes = fs.readAll(path);
        if (bytes.isEmpty()) {
            return false;
        }
        List<AbortedTxn> kept = AbortedTxn.readAll(ByteBuffer.wrap(bytes.get())).stream()
                .filter(t -> t.lastOffset() < replayFrom && t.lastOffset() < segment.nextOffset())
                .toList();
        segment.txnIndex = fs.open(path, false);
        kept.forEach(segment.aborted::add);
        long keptBytes = (long) kept.size() * AbortedTxn.SIZE;
        if (bytes.get().length == keptBytes) {
            return false;
        }
        segment.txnIndex.truncate(keptBytes);
        return true;
    }

    /** Replays a marker: ends its producer's transaction and re-indexes it if it was aborted. */
    private void replayMarker(Segment segment, int position, RecordBatchHeader header, ProducerStateTable producers,
                              Set<Segment> rebuilt) {
        ByteBuffer batch = ByteBuffer.allocate(header.sizeInBytes());
        try {
            while (batch.hasRemaining() && segment.log.read(batch, position + (long) batch.position()) >= 0) {
                // a positional read may return fewer bytes
            }
            Optional<ControlBatch.Marker> marker = ControlBatch.decode(batch.flip());
            if (marker.isEmpty()) {
                return; // an empty control batch (Apache's cleaner leaves them): ends nothing
            }
            Optional<CompletedTransaction> ended = producers.recordMarker(header.producerId(), header.producerEpoch(),
                    marker.get().coordinatorEpoch(), marker.get().isCommit(), header.baseOffset(), header.maxTimestamp());
            if (ended.isPresent() && ended.get().aborted()) {
                if (segment.txnIndex == null) {
                    segment.txnIndex = fs.open(files.txnIndex(segment.name), true);
                }
                segment.addAborted(TransactionalState.abortedEntry(ended.get(), producers));
                rebuilt.add(segment);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot replay the marker at " + header.baseOffset() + " of " + files.dir(), e);
        }
    }

    private Segment createSegment(SegmentName name, long nowMs) throws IOException {
        FileHandle handle = fs.open(files.log(name), true);
        fs.fsyncDirectory(files.dir());
        return new Segment(name, handle, new SegmentIndex(), config.indexIntervalBytes(), nowMs);
    }

    /** Segments after a gap hold nothing acknowledged; remove them so offsets stay contiguous. */
    private void dropFrom(List<SegmentName> names) throws IOException {
        for (SegmentName name : names) {
            fs.delete(files.log(name));
            fs.delete(files.index(name));
            fs.delete(files.timeIndex(name));
            fs.delete(files.txnIndex(name));
        }
        fs.fsyncDirectory(files.dir());
    }

    private void deleteSegmentFiles(Segment segment) throws IOException {
        segment.close();
        dropFrom(List.of(segment.name));
    }

    private <T> Optional<T> read(Path file, Class<T> type) throws IOException {
        Optional<byte[]> bytes = fs.readAll(file);
        if (bytes.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(codec.decode(bytes.get(), type));
        } catch (IOException e) {
            return Optional.empty(); // a torn or foreign file is as good as none: the log is authoritative
        }
    }
}
