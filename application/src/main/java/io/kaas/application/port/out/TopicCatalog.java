package io.kaas.application.port.out;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.function.UnaryOperator;

/**
 * Which topics the cluster declares, and the writes that declare, change and retract them: KafkaTopic resources in
 * cluster mode, which the operator alone materialises as topic files on the shared volume. Brokers read those files;
 * the catalog tells them which of the files still stand for a declared topic, and carries the admin APIs' writes.
 *
 * <p>{@link #view()} is a copy a watch keeps current and never blocks, so nothing that reads it waits on the API
 * server; the writes do, and are only called from admin paths, never from Produce or Fetch.
 */
public interface TopicCatalog {

    /** What the catalog held when last seen; not synced before its first full listing. */
    View view();

    /** Calls {@code listener} after every change of {@link #view()}, on the catalog's thread; it must not block. */
    void onChange(Runnable listener);

    /**
     * Declares a new topic in a resource named for it, which {@link Write#resourceName} names;
     * {@link Result#ALREADY_EXISTS} when that resource exists already.
     */
    Write create(String topic, Declaration declaration);

    /**
     * Replaces what a resource declares with what {@code change} makes of it, read fresh and written back only if
     * nobody wrote in between (else read and applied again). {@code change} may throw the domain's
     * {@code KafkaException} to refuse; it reaches the caller, and nothing is written.
     */
    Write update(String resourceName, UnaryOperator<Declaration> change);

    /** Removes a resource, retracting the topic it declares; {@link Result#NOT_FOUND} when it is gone already. */
    Write delete(String resourceName);

    /** What a topic is declared as: its partition count and its config overrides by Kafka name. */
    record Declaration(int partitions, Map<String, String> configs) {
        public Declaration {
            configs = Map.copyOf(configs);
        }

        public Declaration withPartitions(int count) {
            return new Declaration(count, configs);
        }

        public Declaration withConfigs(Map<String, String> overrides) {
            return new Declaration(partitions, overrides);
        }
    }

    /** How far the operator got with a declared topic's current declaration. */
    enum State {
        /** Not materialised as declared yet (or a transient failure the operator retries). */
        PENDING,
        /** Materialised: the topic files on the volume are what is declared. */
        READY,
        /** Refused for good: nothing on the volume changed; {@link Declared#refusal} says why. */
        REFUSED
    }

    /** Why the operator refused a declaration. */
    enum Refusal {
        INVALID_TOPIC_NAME,
        INVALID_PARTITIONS,
        INVALID_CONFIG,
        /** Another resource, created first, declares the same topic. */
        TOPIC_NAME_CONFLICT,
        PARTITION_DECREASE,
        /** Anything else the operator refuses (a storage binding, say); the message says what. */
        OTHER
    }

    /**
     * One declared topic.
     *
     * @param name         the Kafka topic name
     * @param resourceName the resource that declares it
     * @param topicId      the id the operator minted for it; empty until it did
     * @param refusal      why it was refused; present only in state REFUSED
     * @param message      the operator's words on its state, possibly empty
     */
    record Declared(String name, String resourceName, Declaration declaration, Optional<UUID> topicId, State state,
                    Optional<Refusal> refusal, String message) {
        public Declared {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(resourceName, "resourceName");
            Objects.requireNonNull(declaration, "declaration");
            Objects.requireNonNull(topicId, "topicId");
            Objects.requireNonNull(state, "state");
            Objects.requireNonNull(refusal, "refusal");
            message = message == null ? "" : message;
        }

        /** Whether the files on the volume with incarnation {@code id} are this topic's (or may be: no id yet). */
        public boolean isIncarnation(UUID id) {
            return topicId.map(id::equals).orElse(true);
        }
    }

    /**
     * The declared topics.
     *
     * @param synced    whether a full listing was ever seen; until then nothing is known, rather than nothing declared
     * @param topics    by Kafka name, the resource that owns each topic (when two declare one, the first created)
     * @param resources every resource by its name, owners and refused rivals alike
     */
    record View(boolean synced, Map<String, Declared> topics, Map<String, Declared> resources) {
        /** Before the first listing. */
        public static final View UNSYNCED = new View(false, Map.of(), Map.of());

        public View {
            topics = Map.copyOf(topics);
            resources = Map.copyOf(resources);
        }

        /** The declaration of a topic, by its Kafka name. */
        public Optional<Declared> get(String name) {
            return Optional.ofNullable(topics.get(name));
        }

        public Optional<Declared> resource(String resourceName) {
            return Optional.ofNullable(resources.get(resourceName));
        }

        public Optional<Declared> byId(UUID id) {
            return topics.values().stream().filter(d -> d.topicId().filter(id::equals).isPresent()).findFirst();
        }
    }

    /** How a write ended. */
    enum Result {
        DONE,
        ALREADY_EXISTS,
        NOT_FOUND,
        /** The catalog does not let this broker write (Kubernetes RBAC). */
        FORBIDDEN,
        /** The catalog could not be reached or answered too late: the write may be retried. */
        UNAVAILABLE,
        /** The catalog refused the write as invalid, or failed otherwise; the message says how. */
        FAILED
    }

    /**
     * A write's result.
     *
     * @param message      the catalog's words when it did not succeed, else empty
     * @param resourceName the resource written (for a create, the one made)
     */
    record Write(Result result, String message, String resourceName) {
        public static Write done(String resourceName) {
            return new Write(Result.DONE, "", resourceName);
        }

        public static Write failed(Result result, String message, String resourceName) {
            return new Write(result, message, resourceName);
        }
    }
}
