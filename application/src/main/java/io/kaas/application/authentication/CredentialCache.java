package io.kaas.application.authentication;

import io.kaas.application.port.out.CredentialStore;
import io.kaas.application.port.out.Scheduler;
import io.kaas.application.task.PeriodicTask;
import io.kaas.domain.security.Credentials;
import java.util.concurrent.Executor;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The users of {@code credentials.json} held in memory, so authentication never reads a file: the
 * I/O executor re-reads the file every interval and swaps the snapshot when it changed (a user added
 * by {@code ./kaas user add} or by the operator logs in without a restart), and local alterations
 * write through it. A file that cannot be read keeps the last snapshot until a later pass can.
 */
public final class CredentialCache implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(CredentialCache.class);

    private final CredentialStore store;
    private volatile Credentials current;
    private volatile PeriodicTask reload;

    private CredentialCache(CredentialStore store, Credentials initial) {
        this.store = store;
        this.current = initial;
    }

    /** Reads the file once, on the caller's thread (startup, a command line). */
    public static CredentialCache load(CredentialStore store) {
        return new CredentialCache(store, store.read());
    }

    /** Re-reads the file every {@code intervalMs} on {@code io} until closed. */
    public CredentialCache reloadEvery(long intervalMs, Scheduler scheduler, Executor io) {
        reload = PeriodicTask.start("the credentials reload", scheduler, io, intervalMs, this::refresh);
        return this;
    }

    /** The users as last read or written; cheap, never touches the file. */
    public Credentials current() {
        return current;
    }

    /** Re-reads the file; file I/O. */
    public synchronized void refresh() {
        Credentials read = store.read();
        if (!read.equals(current)) {
            LOG.info("credentials reloaded: {} user(s)", read.users().size());
            current = read;
        }
    }

    /**
     * Rewrites the file with {@code change} applied to what it holds now, and serves the result;
     * durable when it returns. File I/O.
     */
    public synchronized Credentials update(UnaryOperator<Credentials> change) {
        Credentials next = change.apply(store.read());
        store.write(next);
        current = next;
        return next;
    }

    @Override
    public void close() {
        PeriodicTask task = reload;
        if (task != null) {
            task.close();
        }
    }
}
