package io.kaas.adapter.k8s;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResourceList;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.RequestConfig;
import io.fabric8.kubernetes.client.RequestConfigBuilder;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.dsl.FilterWatchListDeletable;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a listener in step with a set of Kubernetes objects: a full list, then a watch from the list's
 * resourceVersion; when the watch fails or ends, another full list after a {@link RestartBackoff}, handed over whole
 * so the listener retracts what vanished in between.
 *
 * <p>Why not fabric8's informer: it resumes a broken watch from its last resourceVersion and relists only on
 * 410 Gone, trusting the API server to replay what it missed. Relisting on every restart converges against any
 * server, the development mock server included, which replays nothing (it sends the current objects as ADDED and
 * never the deletions a watcher missed). The client's own watch reconnects and request retries are turned off for
 * these calls ({@link #withoutClientRetries}), so this backoff is the only retry policy.
 *
 * <p>Every callback runs on this watch's own daemon thread, one at a time.
 */
final class RelistingWatch<T extends HasMetadata> implements AutoCloseable {

    /** What the watched set did. Called on the watch's thread. */
    interface Listener<T> {
        /** A full listing: every object there is; anything not in it is gone. */
        void relisted(List<T> items);

        /** An object was added or modified. */
        void changed(T item);

        void deleted(T item);
    }

    private static final Logger LOG = LoggerFactory.getLogger(RelistingWatch.class);

    private final String description;
    private final FilterWatchListDeletable<T, ? extends KubernetesResourceList<T>, ?> resources;
    private final Listener<T> listener;
    private final RestartBackoff backoff;
    private final ScheduledExecutorService thread;
    private volatile boolean closed;
    private volatile Watch watch;
    /** Which list-and-watch is current; callbacks of an earlier one are ignored. Confined to {@link #thread}. */
    private int generation;

    RelistingWatch(String description, FilterWatchListDeletable<T, ? extends KubernetesResourceList<T>, ?> resources,
                   Listener<T> listener, RestartBackoff backoff) {
        this.description = Objects.requireNonNull(description, "description");
        this.resources = Objects.requireNonNull(resources, "resources");
        this.listener = Objects.requireNonNull(listener, "listener");
        this.backoff = Objects.requireNonNull(backoff, "backoff");
        this.thread = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread t = new Thread(task, "kaas-watch " + description);
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * The same client (same connections, same configuration) for calls that fail at once: a watch it does not
     * reconnect by itself, requests it does not retry. Closing it closes {@code client}.
     */
    static KubernetesClient withoutClientRetries(KubernetesClient client) {
        RequestConfig requests = new RequestConfigBuilder(client.getConfiguration().getRequestConfig())
                .withWatchReconnectLimit(0)
                .withRequestRetryBackoffLimit(0)
                .build();
        return client.newClient(requests).adapt(KubernetesClient.class);
    }

    /** Lists and starts watching, on the watch's thread. */
    void start() {
        execute(this::relistAndWatch);
    }

    @Override
    public void close() {
        closed = true;
        thread.shutdownNow();
        stopWatch();
    }

    private void relistAndWatch() {
        stopWatch();
        int current = ++generation;
        try {
            KubernetesResourceList<T> listing = resources.list();
            String version = listing.getMetadata().getResourceVersion();
            LOG.info("{}: listed {} at resourceVersion {}", description, listing.getItems().size(), version);
            listener.relisted(listing.getItems());
            watch = resources.watch(new ListOptionsBuilder().withResourceVersion(version).withAllowWatchBookmarks(true)
                    .build(), new Forwarder(current));
            if (closed) {
                stopWatch();
            }
        } catch (RuntimeException e) {
            restartLater(current, "list and watch failed", e);
        }
    }

    private void onEvent(int eventGeneration, Watcher.Action action, T item) {
        if (eventGeneration != generation) {
            return;
        }
        backoff.reset();
        try {
            switch (action) {
                case ADDED, MODIFIED -> listener.changed(item);
                case DELETED -> listener.deleted(item);
                default -> {
                    // BOOKMARK: progress only (the backoff reset above); ERROR is handled inside fabric8's watch.
                }
            }
        } catch (RuntimeException e) {
            restartLater(eventGeneration, "handling " + action + " of " + item.getMetadata().getName() + " failed", e);
        }
    }

    private void restartLater(int failedGeneration, String why, Exception cause) {
        if (failedGeneration != generation || closed) {
            return;
        }
        generation++;
        long delayMs = backoff.nextDelayMs();
        LOG.warn("{}: {} ({}), relisting in {} ms", description, why, cause == null ? "no cause given" : cause, delayMs);
        try {
            thread.schedule(this::relistAndWatch, delayMs, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException closing) {
            // close() came first: nothing left to restart.
        }
    }

    private void stopWatch() {
        Watch current = watch;
        watch = null;
        if (current != null) {
            current.close();
        }
    }

    private void execute(Runnable task) {
        try {
            thread.execute(task);
        } catch (RejectedExecutionException closing) {
            // close() came first: callbacks still arriving from fabric8 are dropped.
        }
    }

    /** Hands fabric8's callbacks (on its threads) to the watch's thread, tagged with the generation they belong to. */
    private final class Forwarder implements Watcher<T> {
        private final int generation;

        Forwarder(int generation) {
            this.generation = generation;
        }

        @Override
        public void eventReceived(Action action, T item) {
            execute(() -> onEvent(generation, action, item));
        }

        @Override
        public void onClose(WatcherException cause) {
            execute(() -> restartLater(generation, "watch closed", cause));
        }

        @Override
        public void onClose() {
            // fabric8 calls this when we close the watch, by then of an earlier generation; were it ever current,
            // the watch has ended all the same and is restarted.
            execute(() -> restartLater(generation, "watch ended", null));
        }
    }
}
