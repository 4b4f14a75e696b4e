package io.kaas.operator.reconciler;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands each deletion of a resource it sees to a cleanup, on its own thread, so what a deleted resource left on the
 * volume goes at once instead of at the next orphan sweep (no finalizer tells the operator otherwise). Only deletions
 * the watch saw happen count: one inferred from a listing that lacks a resource (the API server was away, or came back
 * without its objects) is left to the sweep, which lists again before it removes anything. Runs while this replica
 * leads, like the sweep.
 */
public final class DeletionWatch<R extends HasMetadata> implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(DeletionWatch.class);

    private final KubernetesClient client;
    private final Class<R> type;
    private final String namespace;
    private final Consumer<R> cleanup;
    private ExecutorService cleanups;
    private SharedIndexInformer<R> informer;

    /** @param cleanup what to do about a deleted resource; its failure is logged and left to the sweep */
    public DeletionWatch(KubernetesClient client, Class<R> type, String namespace, Consumer<R> cleanup) {
        this.client = client;
        this.type = type;
        this.namespace = namespace;
        this.cleanup = cleanup;
    }

    /** Starts watching; a no-op while it watches. */
    public synchronized void start() {
        if (informer != null) {
            return;
        }
        cleanups = Executors.newSingleThreadExecutor(runnable -> {
            Thread thread = new Thread(runnable, "kaas-" + type.getSimpleName().toLowerCase() + "-deleted");
            thread.setDaemon(true);
            return thread;
        });
        ExecutorService executor = cleanups;
        informer = client.resources(type).inNamespace(namespace).inform(new ResourceEventHandler<>() {
            @Override
            public void onAdd(R resource) {
            }

            @Override
            public void onUpdate(R before, R after) {
            }

            @Override
            public void onDelete(R resource, boolean deletedFinalStateUnknown) {
                if (!deletedFinalStateUnknown) {
                    executor.execute(() -> cleanUp(resource));
                }
            }
        });
    }

    private void cleanUp(R deleted) {
        try {
            cleanup.accept(deleted);
        } catch (RuntimeException e) {
            LOG.warn("cleaning up after the deleted {} {} failed; the sweep retries", type.getSimpleName(),
                    deleted.getMetadata().getName(), e);
        }
    }

    /** Stops watching; a cleanup under way finishes. */
    @Override
    public synchronized void close() {
        if (informer != null) {
            informer.close();
            informer = null;
            cleanups.shutdown();
        }
    }
}
