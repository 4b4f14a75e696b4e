package io.kaas.application.log;

import io.kaas.application.port.out.Filesystem;
import io.kaas.application.port.out.Filesystem.FileHandle;
import io.kaas.application.port.out.JsonCodec;
import io.kaas.domain.log.SegmentName;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes what a {@link LogJournal} holds back into the segments, before any partition opens: after a crash the
 * journal has every acknowledged batch whose segment bytes may not have reached the disk. Each batch entry is
 * written at its position in its segment (creating the file if its name was lost), whatever the segment holds
 * there now — identical bytes, a torn page, or nothing — then the touched segments and directories are fsynced
 * and the journal files deleted. Re-drivable: a crash midway replays the same entries again.
 *
 * <p>Skipped: entries of a partition whose directory no longer exists (topic deleted), entries before that
 * partition's tombstone (its directory was deleted, and maybe re-created by a new topic of that name), and
 * entries of segments older than the one the partition's recovery checkpoint names — a checkpoint is written
 * only after the segments before it were fsynced, and only those older segments are ever rewritten (by the
 * log cleaner) or deleted (retention, DeleteRecords), so a batch there must never be written back.
 */
final class JournalReplay {
    private static final Logger LOG = LoggerFactory.getLogger(JournalReplay.class);

    private final Filesystem fs;
    private final JsonCodec codec;
    private final Path dir;

    JournalReplay(Filesystem fs, JsonCodec codec, Path dir) {
        this.fs = fs;
        this.codec = codec;
        this.dir = dir;
    }

    /** Replays and deletes every journal file; the sequence number the new journal should start at. */
    long replay() throws IOException {
        if (!fs.isDirectory(dir)) {
            return 0L;
        }
        TreeMap<Long, Path> journalFiles = new TreeMap<>();
        for (String name : fs.list(dir)) {
            long seq = LogJournal.seqOf(name);
            if (seq >= 0) {
                journalFiles.put(seq, dir.resolve(name));
            }
        }
        if (journalFiles.isEmpty()) {
            return 0L;
        }
        Map<Path, List<JournalEntry>> byPartition = new LinkedHashMap<>();
        for (Map.Entry<Long, Path> file : journalFiles.entrySet()) {
            byte[] bytes = fs.readAll(file.getValue()).orElse(new byte[0]);
            for (JournalEntry entry : JournalEntry.readAll(bytes, file.getKey())) {
                List<JournalEntry> entries = byPartition.computeIfAbsent(entry.partitionDir(), d -> new ArrayList<>());
                switch (entry.kind()) {
                    case TOMBSTONE -> entries.clear();
                    case BATCH -> entries.add(entry);
                    case VOID -> { } // a batch the log refused
                }
            }
        }
        int written = 0;
        for (Map.Entry<Path, List<JournalEntry>> partition : byPartition.entrySet()) {
            written += writeBack(partition.getKey(), partition.getValue());
        }
        for (Path file : journalFiles.values()) {
            fs.delete(file);
        }
        fs.fsyncDirectory(dir);
        LOG.info("replayed {} journaled batches of {} partitions from {} journal files", written, byPartition.size(),
                journalFiles.size());
        return journalFiles.lastKey() + 1;
    }

    private int writeBack(Path partitionDir, List<JournalEntry> entries) throws IOException {
        if (entries.isEmpty() || !fs.isDirectory(partitionDir)) {
            return 0;
        }
        PartitionFiles files = new PartitionFiles(partitionDir);
        long checkpointedBase = checkpointedSegment(files).map(SegmentName::baseOffset).orElse(-1L);
        Map<SegmentName, FileHandle> touched = new TreeMap<>();
        int written = 0;
        try {
            for (JournalEntry entry : entries) {
                if (entry.segment().baseOffset() < checkpointedBase) {
                    continue;
                }
                FileHandle log = touched.get(entry.segment());
                if (log == null) {
                    log = fs.open(files.log(entry.segment()), true);
                    touched.put(entry.segment(), log);
                }
                log.write(entry.batch().duplicate(), entry.position());
                written++;
            }
            for (FileHandle log : touched.values()) {
                log.force();
            }
        } finally {
            for (FileHandle log : touched.values()) {
                log.close();
            }
        }
        if (!touched.isEmpty()) {
            fs.fsyncDirectory(partitionDir);
        }
        return written;
    }

    private Optional<SegmentName> checkpointedSegment(PartitionFiles files) throws IOException {
        Optional<byte[]> bytes = fs.readAll(files.checkpoint());
        if (bytes.isEmpty()) {
            return Optional.empty();
        }
        try {
            String stem = codec.decode(bytes.get(), PartitionState.Checkpoint.class).segment();
            return SegmentName.parseLogFile(stem + SegmentName.LOG_SUFFIX);
        } catch (IOException e) {
            return Optional.empty(); // torn: as good as none, so everything journaled is written back
        }
    }
}
