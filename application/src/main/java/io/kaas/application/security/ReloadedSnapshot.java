package io.kaas.application.security;

import io.kaas.application.port.out.Scheduler;
import io.kaas.application.task.PeriodicTask;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The in-memory view of a file other processes rewrite ({@code acls.json}, {@code credentials.json}: the
 * operator in a cluster, the admin APIs standalone), so the request path reads it without I/O. The file
 * is read once at start, then re-read every interval on the I/O executor; what it says is turned into the
 * view ({@code derive}) only when it changed. A read that fails keeps the last view: a torn or invalid
 * file never opens or closes access by itself. Readers call {@link #get}: one volatile read.
 *
 * @param <T> what the store reads
 * @param <V> the view built from it
 */
public final class ReloadedSnapshot<T, V> implements Supplier<V>, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ReloadedSnapshot.class);

    private final String name;
    private final Supplier<T> read;
    private final Function<T, V> derive;
    private T content;
    private volatile V view;
    private PeriodicTask task;

    private ReloadedSnapshot(String name, Supplier<T> read, Function<T, V> derive) {
        this.name = name;
        this.read = read;
        this.derive = derive;
    }

    /**
     * Reads the file now, on the calling (startup) thread, then every {@code intervalMs} on {@code io}.
     *
     * @throws RuntimeException what the first read threw: a broker must not start on a file it cannot read
     */
    public static <T, V> ReloadedSnapshot<T, V> start(String name, Supplier<T> read, Function<T, V> derive,
                                                      Scheduler scheduler, Executor io, long intervalMs) {
        ReloadedSnapshot<T, V> snapshot = new ReloadedSnapshot<>(name, read, derive);
        snapshot.reload();
        snapshot.task = PeriodicTask.start("reloading " + name, scheduler, io, intervalMs, snapshot::reload);
        return snapshot;
    }

    @Override
    public V get() {
        return view;
    }

    /**
     * Re-reads the file on the calling thread (an I/O thread), as after this broker wrote it itself: the
     * change is in effect here when this returns.
     */
    public synchronized void reload() {
        T latest = read.get();
        if (view != null && Objects.equals(latest, content)) {
            return;
        }
        V next = derive.apply(latest);
        if (view != null) {
            LOG.info("{} changed on the volume; now in effect", name);
        }
        content = latest;
        view = next;
    }

    @Override
    public void close() {
        if (task != null) {
            task.close();
        }
    }
}
