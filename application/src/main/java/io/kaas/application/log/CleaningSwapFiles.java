package io.kaas.application.log;

import io.kaas.application.port.out.Filesystem;
import io.kaas.application.port.out.JsonCodec;
import io.kaas.domain.log.SegmentName;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The file steps of swapping cleaned segments in, shared by the cleaner and recovery. A cleaning
 * writes every file of its new segments under a {@code .cleaned} name and fsyncs them; writing
 * {@code cleaning-swap.json} decides the swap. Completing it is idempotent, so a crash anywhere is
 * re-driven by the next open: delete the replaced segments, rename each {@code .cleaned} file over
 * its final name, fsync the directory, write the cleaner checkpoint, remove the swap file. Without
 * a swap file, {@code .cleaned} files are an undecided cleaning's and are deleted: the old segments stand.
 */
final class CleaningSwapFiles {
    private CleaningSwapFiles() {
    }

    /** Completes a decided swap (the swap file is durable). */
    static void complete(Filesystem fs, JsonCodec codec, PartitionFiles files, PartitionState.CleaningSwap swap)
            throws IOException {
        for (PartitionState.CleaningSwap.Group group : swap.groups()) {
            SegmentName target = name(group.segment());
            for (String replaced : group.replaces()) {
                SegmentName old = name(replaced);
                if (!old.equals(target)) {
                    for (Path file : files.segmentFiles(old)) {
                        fs.delete(file);
                    }
                }
            }
            for (Path file : files.segmentFiles(target)) {
                Path cleaned = PartitionFiles.cleaned(file);
                if (fs.exists(cleaned)) {
                    fs.rename(cleaned, file);
                }
            }
        }
        fs.fsyncDirectory(files.dir());
        fs.writeAtomically(files.cleanerCheckpoint(),
                codec.encode(new PartitionState.CleanerCheckpoint(swap.cleanedThrough())));
        fs.delete(files.cleaningSwap());
        fs.fsyncDirectory(files.dir());
    }

    /**
     * On open, before the segments are read: completes a decided swap, deletes an undecided one's
     * files, and answers the cleaner checkpoint (-1 when the log was never cleaned).
     */
    static long recover(Filesystem fs, JsonCodec codec, PartitionFiles files) throws IOException {
        Optional<PartitionState.CleaningSwap> swap = read(fs, codec, files.cleaningSwap(), PartitionState.CleaningSwap.class);
        if (swap.isPresent()) {
            complete(fs, codec, files, swap.get());
        }
        boolean deleted = false;
        for (String name : fs.list(files.dir())) {
            if (PartitionFiles.isCleaned(name)) {
                fs.delete(files.dir().resolve(name));
                deleted = true;
            }
        }
        if (deleted) {
            fs.fsyncDirectory(files.dir());
        }
        return read(fs, codec, files.cleanerCheckpoint(), PartitionState.CleanerCheckpoint.class)
                .map(PartitionState.CleanerCheckpoint::cleanedThrough).orElse(-1L);
    }

    static SegmentName name(String stem) {
        return SegmentName.parseLogFile(stem + SegmentName.LOG_SUFFIX)
                .orElseThrow(() -> new IllegalArgumentException("not a segment name: " + stem));
    }

    private static <T> Optional<T> read(Filesystem fs, JsonCodec codec, Path file, Class<T> type) throws IOException {
        Optional<byte[]> bytes = fs.readAll(file);
        return bytes.isEmpty() ? Optional.empty() : Optional.of(codec.decode(bytes.get(), type));
    }
}
