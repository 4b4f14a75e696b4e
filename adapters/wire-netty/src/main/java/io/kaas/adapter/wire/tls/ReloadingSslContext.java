package io.kaas.adapter.wire.tls;

import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslProvider;
import java.io.IOException;
import java.security.cert.X509Certificate;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A TLS listener's server context, swapped when its PEM files change: cert-manager renews a certificate
 * by rewriting the Secret, which the kubelet lands in the pod as one atomic symlink swap ({@code ..data}).
 * A check reads the files on this object's own thread (never an event loop) and, when their bytes changed,
 * builds a new context that every connection accepted afterwards handshakes with; established connections
 * keep the session they have. A change that does not parse, or whose key does not match its certificate,
 * leaves the current context in place and is logged once as an error.
 */
public final class ReloadingSslContext implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ReloadingSslContext.class);

    private final String listener;
    private final TlsSettings settings;
    private final SslProvider provider;
    private volatile Loaded current;
    /** The digest of the last change that failed, so a broken file is reported once, not every check. */
    private TlsMaterial.Digest rejected;
    private ScheduledExecutorService watcher;

    private record Loaded(SslContext context, TlsMaterial material) {
    }

    private ReloadingSslContext(String listener, TlsSettings settings, SslProvider provider, Loaded initial) {
        this.listener = listener;
        this.settings = settings;
        this.provider = provider;
        this.current = initial;
    }

    /**
     * Loads the listener's files, with the preferred provider (OpenSSL where available).
     *
     * @param listener the listener's name, for the log
     * @throws IllegalArgumentException naming the file and the problem: a startup error
     */
    public static ReloadingSslContext load(String listener, TlsSettings settings) {
        return load(listener, settings, ServerSslContexts.preferredProvider());
    }

    /** Loads with the given provider ({@code SslProvider.JDK} or {@code SslProvider.OPENSSL}). */
    public static ReloadingSslContext load(String listener, TlsSettings settings, SslProvider provider) {
        TlsMaterial material;
        try {
            material = TlsMaterial.parse(TlsMaterial.Contents.read(settings), settings);
        } catch (IOException e) {
            throw new IllegalArgumentException("listener " + listener + ": cannot read its TLS files: " + e, e);
        }
        Loaded loaded = new Loaded(ServerSslContexts.build(material, settings, provider), material);
        LOG.info("listener {}: TLS with {} ({}), client auth {}, certificate {}", listener, provider,
                String.join(",", settings.protocols()), settings.clientAuth().configValue(), describe(material));
        return new ReloadingSslContext(listener, settings, provider, loaded);
    }

    /** A handler for a connection just accepted, from the context current now. Runs on any thread. */
    public SslHandler newHandler(ByteBufAllocator alloc) {
        SslHandler handler = current.context().newHandler(alloc);
        handler.setHandshakeTimeoutMillis(settings.handshakeTimeout().toMillis());
        return handler;
    }

    /** The leaf certificate new connections are served. */
    public X509Certificate certificate() {
        return current.material().leaf();
    }

    public SslProvider provider() {
        return provider;
    }

    /**
     * Reads the files and swaps in a new context if their bytes changed and parse: what the watcher runs
     * every {@link TlsSettings#reloadInterval()}. Blocks on file I/O: never call it on an event loop.
     *
     * @return whether new connections now get a new context
     */
    public synchronized boolean reloadIfChanged() {
        TlsMaterial.Contents contents;
        try {
            contents = TlsMaterial.Contents.read(settings);
        } catch (IOException e) {
            // mid-swap a file may be briefly missing; the next check sees the settled state
            LOG.warn("listener {}: cannot read its TLS files, keeping the current certificate: {}", listener,
                    e.toString());
            return false;
        }
        TlsMaterial.Digest digest = contents.digest();
        if (digest.equals(current.material().digest()) || digest.equals(rejected)) {
            return false;
        }
        Loaded next;
        try {
            TlsMaterial material = TlsMaterial.parse(contents, settings);
            next = new Loaded(ServerSslContexts.build(material, settings, provider), material);
        } catch (RuntimeException e) {
            rejected = digest;
            LOG.error("listener {}: the changed TLS files are not usable, new connections keep certificate {}: {}",
                    listener, describe(current.material()), e.getMessage());
            return false;
        }
        LOG.info("listener {}: TLS files changed, new connections get certificate {} (was {})", listener,
                describe(next.material()), describe(current.material()));
        current = next;
        rejected = null;
        return true;
    }

    /** Starts checking the files every {@link TlsSettings#reloadInterval()} on a thread of its own. */
    public synchronized void startWatching() {
        if (watcher != null) {
            throw new IllegalStateException("listener " + listener + ": already watching its TLS files");
        }
        watcher = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "kaas-tls-reload-" + listener);
            thread.setDaemon(true);
            return thread;
        });
        long intervalMs = settings.reloadInterval().toMillis();
        watcher.scheduleWithFixedDelay(this::checkLogged, intervalMs, intervalMs, TimeUnit.MILLISECONDS);
    }

    private void checkLogged() {
        try {
            reloadIfChanged();
        } catch (RuntimeException e) {
            // a scheduled task that throws is never run again: log and keep checking
            LOG.error("listener {}: checking its TLS files failed", listener, e);
        }
    }

    /** Stops watching; connections and handlers already made are unaffected. */
    @Override
    public synchronized void close() {
        if (watcher != null) {
            watcher.shutdownNow();
        }
    }

    private static String describe(TlsMaterial material) {
        X509Certificate leaf = material.leaf();
        return "'" + leaf.getSubjectX500Principal().getName() + "' serial " + leaf.getSerialNumber().toString(16)
                + " valid until " + leaf.getNotAfter().toInstant() + " (files " + material.digest() + ")";
    }
}
