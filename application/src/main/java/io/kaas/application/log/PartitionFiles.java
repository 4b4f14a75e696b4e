package io.kaas.application.log;

import io.kaas.domain.log.SegmentName;
import io.kaas.domain.topic.TopicPartition;
import java.nio.file.Path;
import java.util.List;

/** Where a partition's files live: {@code <data>/<topic>/<partition>/}. */
record PartitionFiles(Path dir) {
    private static final String CLEANED_SUFFIX = ".cleaned";

    static PartitionFiles of(Path dataRoot, TopicPartition tp) {
        return new PartitionFiles(dataRoot.resolve(tp.topic()).resolve(Integer.toString(tp.partition())));
    }

    Path manifest() {
        return dir.resolve("manifest.json");
    }

    Path checkpoint() {
        return dir.resolve("recovery-checkpoint.json");
    }

    /** {@code cleaner-checkpoint.json}: where the last cleaning stopped (Apache's cleaner-offset-checkpoint). */
    Path cleanerCheckpoint() {
        return dir.resolve("cleaner-checkpoint.json");
    }

    /** {@code cleaning-swap.json}: a cleaning's decided swap, re-driven by recovery until done. */
    Path cleaningSwap() {
        return dir.resolve("cleaning-swap.json");
    }

    /** Where a cleaning writes the new content of {@code file} before the swap. */
    static Path cleaned(Path file) {
        return file.resolveSibling(file.getFileName() + CLEANED_SUFFIX);
    }

    static boolean isCleaned(String fileName) {
        return fileName.endsWith(CLEANED_SUFFIX);
    }

    /** The four files of a segment: log, offset index, time index, transaction index. */
    List<Path> segmentFiles(SegmentName name) {
        return List.of(log(name), index(name), timeIndex(name), txnIndex(name));
    }

    Path producerSnapshot() {
        return dir.resolve("producer-state.snapshot");
    }

    Path log(SegmentName name) {
        return dir.resolve(name.logFile());
    }

    Path index(SegmentName name) {
        return dir.resolve(name.indexFile());
    }

    Path timeIndex(SegmentName name) {
        return dir.resolve(name.timeIndexFile());
    }

    Path txnIndex(SegmentName name) {
        return dir.resolve(name.txnIndexFile());
    }
}
