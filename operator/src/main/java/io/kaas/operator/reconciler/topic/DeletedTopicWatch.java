package io.kaas.operator.reconciler.topic;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.kaas.adapter.k8s.TopicClaims;
import io.kaas.adapter.k8s.TopicResourceNames;
import io.kaas.adapter.k8s.crd.KafkaTopic;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reclaims a deleted KafkaTopic's directory as soon as the deletion is seen ({@link OrphanTopicSweep#reclaim}), so
 * DeleteTopics frees the volume at once instead of at the next sweep. Only deletions the watch saw happen count: one
 * inferred from a listing that lacks a resource (the API server was away, or came back without its objects) is left
 * to the sweep, which lists again before it removes anything. Runs while this replica leads, like the sweep.
 */
public final class DeletedTopicWatch implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(DeletedTopicWatch.class);

    private final KubernetesClient client;
    private final String namespace;
    private final OrphanTopicSweep sweep;
    private ExecutorService reclaims;
    private SharedIndexInformer<KafkaTopic> informer;

    public DeletedTopicWatch(KubernetesClient client, String namespace, OrphanTopicSweep sweep) {
        this.client = client;
        this.namespace = namespace;
        this.sweep = sweep;
    }

    /** Starts watching; a no-op while it watches. */
    public synchronized void start() {
        if (informer != null) {
            return;
        }
        reclaims = Executors.newSingleThreadExecutor(runnable -> {
            Thread thread = new Thread(runnable, "kaas-topic-reclaim");
            thread.setDaemon(true);
            return thread;
        });
        ExecutorService executor = reclaims;
        informer = client.resources(KafkaTopic.class).inNamespace(namespace).inform(new ResourceEventHandler<>() {
            @Override
            public void onAdd(KafkaTopic resource) {
            }

            @Override
            public void onUpdate(KafkaTopic before, KafkaTopic after) {
            }

            @Override
            public void onDelete(KafkaTopic resource, boolean deletedFinalStateUnknown) {
                if (!deletedFinalStateUnknown) {
                    executor.execute(() -> reclaim(resource));
                }
            }
        });
    }

    private void reclaim(KafkaTopic deleted) {
        String topic = TopicResourceNames.topicName(deleted);
        Optional<UUID> id = Optional.ofNullable(deleted.getStatus()).map(s -> s.getTopicId()).flatMap(TopicClaims::parse);
        if (id.isEmpty()) {
            return; // never given an id, so never materialised: nothing on the volume is its
        }
        try {
            if (!sweep.reclaim(topic, id.get())) {
                LOG.debug("KafkaTopic {} deleted; its directory is not (or no longer) its to remove",
                        deleted.getMetadata().getName());
            }
        } catch (RuntimeException e) {
            LOG.warn("reclaiming the directory of the deleted KafkaTopic {} failed; the sweep retries",
                    deleted.getMetadata().getName(), e);
        }
    }

    /** Stops watching; a reclaim under way finishes. */
    @Override
    public synchronized void close() {
        if (informer != null) {
            informer.close();
            informer = null;
            reclaims.shutdown();
        }
    }
}
