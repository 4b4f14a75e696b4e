package io.kaas.application.log;

import io.kaas.application.port.out.Clock;
import io.kaas.application.port.out.CompactionRecords;
import io.kaas.application.port.out.Pacer;
import io.kaas.domain.compaction.CleanableRange;
import java.io.IOException;
import java.util.Collection;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The log cleaner of a disk engine (Apache's {@code LogCleaner}): each pass cleans the filthiest
 * due log of a compacted topic (highest dirty ratio; one past {@code max.compaction.lag.ms} is due
 * whatever its ratio), then the next, until none is due. Runs on its own thread, which the caller
 * gives it; all its I/O is paced by the {@link Pacer} ({@code log.cleaner.io.max.bytes.per.second}).
 * A log whose cleaning fails is left alone for the rest of the pass and retried by the next.
 */
public final class LogCleaner {
    private static final Logger LOG = LoggerFactory.getLogger(LogCleaner.class);

    private final Supplier<Collection<DiskPartitionLog>> logs;
    private final CompactionRecords records;
    private final Pacer pacer;
    private final int mapCapacity;
    private final Clock clock;
    private final AtomicLong cleanings = new AtomicLong();
    private final AtomicLong bytesCleaned = new AtomicLong();
    private volatile boolean stopped;

    LogCleaner(Supplier<Collection<DiskPartitionLog>> logs, CompactionRecords records, Pacer pacer, int mapCapacity,
               Clock clock) {
        this.logs = logs;
        this.records = records;
        this.pacer = pacer;
        this.mapCapacity = mapCapacity;
        this.clock = clock;
    }

    /** Cleans due logs, filthiest first, until none is; the number cleaned. */
    public int cleanDueLogs() throws InterruptedException {
        Set<DiskPartitionLog> visited = new HashSet<>(); // cleaned or failed this pass
        int cleaned = 0;
        while (!stopped) {
            long now = clock.nowMs();
            DiskPartitionLog filthiest = null;
            double worst = -1;
            for (DiskPartitionLog log : logs.get()) {
                if (visited.contains(log)) {
                    continue;
                }
                Optional<CleanableRange> range = log.cleanableRange(now);
                if (range.isPresent() && range.get().due(log.config().compaction())) {
                    double ratio = range.get().compactionOverdue() ? 2.0 : range.get().dirtyRatio();
                    if (ratio > worst) {
                        worst = ratio;
                        filthiest = log;
                    }
                }
            }
            if (filthiest == null) {
                return cleaned;
            }
            try {
                long bytes = filthiest.clean(records, pacer, mapCapacity, now);
                if (bytes == 0) {
                    visited.add(filthiest); // nothing it could do now (a race with retention, a full map): next pass
                } else {
                    visited.add(filthiest); // once a pass: a log that keeps filling must not starve the others
                    cleaned++;
                    cleanings.incrementAndGet();
                    bytesCleaned.addAndGet(bytes);
                }
            } catch (IOException | RuntimeException e) {
                LOG.warn("cleaning {} failed; the next pass retries", filthiest.topicPartition(), e);
                visited.add(filthiest);
            }
        }
        return cleaned;
    }

    /** Stops the pass in progress after the cleaning in progress; no pass starts any more. */
    public void stop() {
        stopped = true;
    }

    /** Cleanings completed since start (each swapped cleaned segments in). */
    public long cleanings() {
        return cleanings.get();
    }

    /** Bytes of segments the completed cleanings read. */
    public long bytesCleaned() {
        return bytesCleaned.get();
    }
}
