package io.kaas.application.log;

import io.kaas.application.port.out.Filesystem;
import io.kaas.application.port.out.JsonCodec;
import io.kaas.application.port.out.Scheduler;
import io.kaas.domain.topic.TopicPartition;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Executor;
import java.util.concurrent.locks.ReentrantLock;

/**
 * What the parts of one {@link DiskPartitionLog} share, so each is built from one value and the two
 * locks are defined in one place.
 *
 * @param topicPartition the partition
 * @param files          where its files live
 * @param fs             the only way to them
 * @param codec          for the JSON state files (manifest, checkpoint, producer snapshot)
 * @param io             the I/O executor: fsyncs and the other slow file work run there
 * @param scheduler      the fsync watchdog and the delayed close of removed segments' handles
 * @param lock           the partition lock: the {@link DiskPartitionLog}'s own monitor, held by
 *                       appends and producer-state calls; it guards the fields of
 *                       {@link DiskSegments}, {@link GroupCommitter} and {@link SegmentCleaner}.
 *                       Nothing slow runs under it.
 * @param ioLock         the I/O lock, held by whoever writes the partition's files (the committer,
 *                       the cleaner and close) so their writes never interleave; taken before the
 *                       partition lock, never while holding it
 * @param fence          asked before every step a newer leader's files could be hurt by
 */
record DiskPartitionContext(TopicPartition topicPartition, PartitionFiles files, Filesystem fs, JsonCodec codec,
                            Executor io, Scheduler scheduler, Object lock, ReentrantLock ioLock, TakeoverFence fence) {

    /** Replaces a JSON state file whole (temp file, fsync, rename, directory fsync). */
    void writeJson(Path file, Object value) throws IOException {
        fs.writeAtomically(file, codec.encode(value));
    }
}
