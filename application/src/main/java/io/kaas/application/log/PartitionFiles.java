package io.kaas.application.log;

import io.kaas.domain.log.SegmentName;
import io.kaas.domain.topic.TopicPartition;
import java.nio.file.Path;

/** Where a partition's files live: {@code <data>/<topic>/<partition>/}. */
record PartitionFiles(Path dir) {

    static PartitionFiles of(Path dataRoot, TopicPartition tp) {
        return new PartitionFiles(dataRoot.resolve(tp.topic()).resolve(Integer.toString(tp.partition())));
    }

    Path manifest() {
        return dir.resolve("manifest.json");
    }

    Path checkpoint() {
        return dir.resolve("recovery-checkpoint.json");
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
