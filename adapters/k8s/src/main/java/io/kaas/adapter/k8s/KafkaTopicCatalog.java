package io.kaas.adapter.k8s;

import io.fabric8.kubernetes.api.model.KubernetesResourceList;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.StatusDetails;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.kaas.adapter.k8s.crd.KafkaTopic;
import io.kaas.adapter.k8s.crd.KafkaTopicSpec;
import io.kaas.application.port.out.TopicCatalog;
import java.net.HttpURLConnection;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link TopicCatalog} on KafkaTopic resources in one namespace. The view is a published copy that a
 * {@link RelistingWatch} keeps current on its own thread (relist on every restart, 1 s to 30 s apart, each relist a
 * full diff that retracts what vanished), so reading it never blocks and a dead API server only freezes it. Writes go
 * to the API server on the caller's thread: a create names the resource after the topic ({@link TopicResourceNames})
 * and may carry ArgoCD's coexistence annotations; an update is a read-modify-write that the API server refuses (409)
 * when anything wrote in between, and is then read and applied again.
 */
public final class KafkaTopicCatalog implements TopicCatalog, AutoCloseable {
    private static final Duration FIRST_RESTART = Duration.ofSeconds(1);
    private static final Duration LONGEST_RESTART = Duration.ofSeconds(30);
    /** Writes racing this broker's: beyond this many in a row, something keeps rewriting the resource. */
    private static final int CONFLICT_ATTEMPTS = 5;
    private static final Logger LOG = LoggerFactory.getLogger(KafkaTopicCatalog.class);

    private final KubernetesClient client;
    private final String namespace;
    private final Optional<ArgoCdAnnotations> argoCd;
    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
    /** The resources last seen, by name; confined to the watch's thread. */
    private final Map<String, KafkaTopic> resources = new HashMap<>();
    private final RelistingWatch<KafkaTopic> watch;
    private volatile View view = View.UNSYNCED;

    /**
     * @param client used for the writes as configured (a broker's fails fast); the watch uses it without retries
     * @param argoCd the annotations every KafkaTopic this broker creates carries, if any
     */
    public KafkaTopicCatalog(KubernetesClient client, String namespace, Optional<ArgoCdAnnotations> argoCd) {
        this.client = Objects.requireNonNull(client, "client");
        this.namespace = Objects.requireNonNull(namespace, "namespace");
        this.argoCd = Objects.requireNonNull(argoCd, "argoCd");
        this.watch = new RelistingWatch<>("KafkaTopics of " + namespace,
                RelistingWatch.withoutClientRetries(client).resources(KafkaTopic.class).inNamespace(namespace),
                new TopicEvents(), new RestartBackoff(FIRST_RESTART, LONGEST_RESTART));
    }

    /** Starts watching; returns at once. */
    public KafkaTopicCatalog start() {
        watch.start();
        return this;
    }

    @Override
    public View view() {
        return view;
    }

    @Override
    public void onChange(Runnable listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
    }

    @Override
    public Write create(String topic, Declaration declaration) {
        String name = TopicResourceNames.resourceName(topic);
        KafkaTopicSpec spec = new KafkaTopicSpec();
        spec.setPartitions(declaration.partitions());
        if (!TopicResourceNames.isKubernetesName(topic)) {
            spec.setTopicName(topic);
        }
        spec.setConfig(TopicConfigFields.toConfig(declaration.configs()));
        KafkaTopic resource = new KafkaTopic();
        resource.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(namespace)
                .withAnnotations(argoCd.map(a -> a.of(namespace, name)).orElse(null)).build());
        resource.setSpec(spec);
        try {
            topics().resource(resource).create();
            return Write.done(name);
        } catch (KubernetesClientException e) {
            // A 404 on create means the kind itself is missing: the CRD is not installed.
            return failure("create", name, e, Result.ALREADY_EXISTS, Result.FAILED);
        }
    }

    @Override
    public Write update(String resourceName, UnaryOperator<Declaration> change) {
        for (int attempt = 1; attempt <= CONFLICT_ATTEMPTS; attempt++) {
            KafkaTopic current;
            try {
                current = topics().withName(resourceName).get();
            } catch (KubernetesClientException e) {
                return failure("read", resourceName, e, Result.FAILED, Result.NOT_FOUND);
            }
            if (current == null) {
                return Write.failed(Result.NOT_FOUND, "KafkaTopic " + resourceName + " does not exist", resourceName);
            }
            Declaration stored = DeclaredTopics.declared(current).declaration();
            Declaration next = change.apply(stored);
            if (next.equals(stored)) {
                return Write.done(resourceName);
            }
            if (current.getSpec() == null) {
                current.setSpec(new KafkaTopicSpec());
            }
            current.getSpec().setPartitions(next.partitions());
            current.getSpec().setConfig(TopicConfigFields.toConfig(next.configs()));
            try {
                // Carries the resourceVersion read above: refused with 409 if anything wrote since.
                topics().resource(current).update();
                return Write.done(resourceName);
            } catch (KubernetesClientException e) {
                if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
                    return failure("update", resourceName, e, Result.FAILED, Result.NOT_FOUND);
                }
                LOG.debug("KafkaTopic {} changed while this broker updated it; reading it again", resourceName);
            }
        }
        return Write.failed(Result.FAILED, "KafkaTopic " + resourceName + " changed under each of " + CONFLICT_ATTEMPTS
                + " attempts to update it", resourceName);
    }

    @Override
    public Write delete(String resourceName) {
        try {
            List<StatusDetails> deleted = topics().withName(resourceName).delete();
            return deleted.isEmpty()
                    ? Write.failed(Result.NOT_FOUND, "KafkaTopic " + resourceName + " does not exist", resourceName)
                    : Write.done(resourceName);
        } catch (KubernetesClientException e) {
            return failure("delete", resourceName, e, Result.FAILED, Result.NOT_FOUND);
        }
    }

    @Override
    public void close() {
        watch.close();
    }

    private MixedOperation<KafkaTopic, KubernetesResourceList<KafkaTopic>, Resource<KafkaTopic>> topics() {
        return client.resources(KafkaTopic.class);
    }

    /** An API server's refusal as a write result; what a 409 and a 404 mean depends on the write. */
    private Write failure(String operation, String name, KubernetesClientException e, Result onConflict,
                          Result onNotFound) {
        int code = e.getCode();
        Result result;
        if (code == HttpURLConnection.HTTP_CONFLICT) {
            result = onConflict;
        } else if (code == HttpURLConnection.HTTP_NOT_FOUND) {
            result = onNotFound;
        } else if (code == HttpURLConnection.HTTP_FORBIDDEN || code == HttpURLConnection.HTTP_UNAUTHORIZED) {
            result = Result.FORBIDDEN;
        } else if (code <= 0 || code == 429 || code >= 500) {
            result = Result.UNAVAILABLE; // no answer, throttled, or the server failing: worth another try
        } else {
            result = Result.FAILED;
        }
        String message = operation + " KafkaTopic " + namespace + "/" + name + ": "
                + (code > 0 ? "HTTP " + code + " " : "no response: ") + e.getMessage();
        if (result == Result.UNAVAILABLE || result == Result.FAILED) {
            LOG.warn("{}", message);
        }
        return Write.failed(result, message, name);
    }

    private void publish(String cause) {
        view = DeclaredTopics.of(List.copyOf(resources.values()));
        LOG.debug("KafkaTopics of {} after {}: {}", namespace, cause, view.topics().keySet());
        for (Runnable listener : listeners) {
            try {
                listener.run();
            } catch (RuntimeException e) {
                LOG.error("a topic catalog listener failed after {}", cause, e);
            }
        }
    }

    /** The watch's callbacks, on its thread: the only writer of {@link #resources} and {@link #view}. */
    private final class TopicEvents implements RelistingWatch.Listener<KafkaTopic> {
        @Override
        public void relisted(List<KafkaTopic> items) {
            resources.clear();
            items.forEach(item -> resources.put(item.getMetadata().getName(), item));
            publish("a listing of " + items.size());
        }

        @Override
        public void changed(KafkaTopic item) {
            resources.put(item.getMetadata().getName(), item);
            publish("KafkaTopic " + item.getMetadata().getName() + " changed");
        }

        @Override
        public void deleted(KafkaTopic item) {
            resources.remove(item.getMetadata().getName());
            publish("KafkaTopic " + item.getMetadata().getName() + " deleted");
        }
    }
}
