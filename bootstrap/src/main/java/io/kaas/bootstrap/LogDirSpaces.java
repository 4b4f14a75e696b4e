package io.kaas.bootstrap;

import io.kaas.application.log.LogDirectories;
import io.kaas.application.log.LogEngine;
import io.kaas.application.port.out.Scheduler;
import io.kaas.application.task.PeriodicTask;
import io.kaas.bootstrap.telemetry.BrokerGauges.LogDirSpace;
import java.util.List;
import java.util.concurrent.Executor;

/**
 * Each log dir's size and free space for the gauges, measured on the I/O executor every few seconds and read from
 * memory when the metrics are collected: a statfs on a volume that hangs would otherwise hang the collection with it.
 * A log dir whose space cannot be read (or the heap of {@code KAAS_STORAGE=memory}) is left out.
 */
final class LogDirSpaces implements AutoCloseable {
    static final long INTERVAL_MS = 10_000;

    private final LogEngine engine;
    private final LogDirectories dirs;
    private final PeriodicTask task;
    private volatile List<LogDirSpace> measured = List.of();

    private LogDirSpaces(LogEngine engine, LogDirectories dirs, Scheduler scheduler, Executor io) {
        this.engine = engine;
        this.dirs = dirs;
        io.execute(this::measure);
        this.task = PeriodicTask.start("measuring the log dirs' space", scheduler, io, INTERVAL_MS, this::measure);
    }

    /** @param dirs names the log dirs by the paths {@link LogEngine#logDirs()} reports */
    static LogDirSpaces start(LogEngine engine, LogDirectories dirs, Scheduler scheduler, Executor io) {
        return new LogDirSpaces(engine, dirs, scheduler, io);
    }

    /** The last measurement. */
    List<LogDirSpace> current() {
        return measured;
    }

    private void measure() {
        measured = engine.logDirs().stream()
                .filter(dir -> dir.totalBytes() != LogEngine.LogDir.UNKNOWN)
                .flatMap(dir -> dirs.named(dir.path()).stream().map(name -> new LogDirSpace(name, dir.path(),
                        dir.totalBytes(), dir.usableBytes())))
                .toList();
    }

    @Override
    public void close() {
        task.close();
    }
}
