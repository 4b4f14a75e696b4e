package io.kaas.application.memory;

import io.kaas.application.port.out.TopicCatalog;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.UnaryOperator;

/**
 * A topic catalog the test holds in its hand: writes change the view at once and notify the listeners; the test plays
 * the operator ({@link #markReady}, {@link #refuse}), declares topics as a person would ({@link #declare}), makes the
 * catalog fail ({@link #failNext}) and decides when it has been listed ({@link #sync}). A topic's resource is named
 * after the topic; when two resources declare one topic, the one declared first owns it.
 */
public final class InMemoryTopicCatalog implements TopicCatalog {
    private final Map<String, Declared> resources = new LinkedHashMap<>();
    private final Deque<Result> failures = new ArrayDeque<>();
    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
    private final List<String> writes = new ArrayList<>();
    private boolean synced;

    /** A catalog already listed, declaring nothing. */
    public static InMemoryTopicCatalog listed() {
        InMemoryTopicCatalog catalog = new InMemoryTopicCatalog();
        catalog.synced = true;
        return catalog;
    }

    /** A catalog never listed: the API server has not been reached. */
    public static InMemoryTopicCatalog unlisted() {
        return new InMemoryTopicCatalog();
    }

    @Override
    public synchronized View view() {
        Map<String, Declared> owners = new HashMap<>();
        resources.values().forEach(d -> owners.putIfAbsent(d.name(), d));
        return new View(synced, owners, resources);
    }

    @Override
    public void onChange(Runnable listener) {
        listeners.add(listener);
    }

    @Override
    public Write create(String topic, Declaration declaration) {
        synchronized (this) {
            writes.add("create " + topic);
            Optional<Write> failure = failure(topic);
            if (failure.isPresent()) {
                return failure.get();
            }
            if (resources.containsKey(topic)) {
                return Write.failed(Result.ALREADY_EXISTS, "kafkatopics \"" + topic + "\" already exists", topic);
            }
            resources.put(topic, pending(topic, topic, declaration, Optional.empty()));
        }
        changed();
        return Write.done(topic);
    }

    @Override
    public Write update(String resourceName, UnaryOperator<Declaration> change) {
        synchronized (this) {
            writes.add("update " + resourceName);
            Optional<Write> failure = failure(resourceName);
            if (failure.isPresent()) {
                return failure.get();
            }
            Declared current = resources.get(resourceName);
            if (current == null) {
                return Write.failed(Result.NOT_FOUND, "kafkatopics \"" + resourceName + "\" not found", resourceName);
            }
            Declaration next = change.apply(current.declaration());
            resources.put(resourceName, pending(current.name(), resourceName, next, current.topicId()));
        }
        changed();
        return Write.done(resourceName);
    }

    @Override
    public Write delete(String resourceName) {
        synchronized (this) {
            writes.add("delete " + resourceName);
            Optional<Write> failure = failure(resourceName);
            if (failure.isPresent()) {
                return failure.get();
            }
            if (resources.remove(resourceName) == null) {
                return Write.failed(Result.NOT_FOUND, "kafkatopics \"" + resourceName + "\" not found", resourceName);
            }
        }
        changed();
        return Write.done(resourceName);
    }

    // ------------------------------------------------------------------------------------------ the test's hand

    /** The next writes fail with these results, one each, before anything is written. */
    public synchronized void failNext(Result... results) {
        failures.addAll(List.of(results));
    }

    /** Every write asked for, in order ("create orders", "update orders", "delete orders"). */
    public synchronized List<String> writes() {
        return List.copyOf(writes);
    }

    /** The first full listing arrives. */
    public void sync() {
        synchronized (this) {
            synced = true;
        }
        changed();
    }

    /** A resource created by someone else (kubectl, GitOps), not yet reconciled. */
    public void declare(String resourceName, String topic, Declaration declaration) {
        synchronized (this) {
            resources.put(resourceName, pending(topic, resourceName, declaration, Optional.empty()));
        }
        changed();
    }

    /** The operator materialised the resource's current declaration under {@code topicId}. */
    public void markReady(String resourceName, UUID topicId) {
        replace(resourceName, d -> new Declared(d.name(), resourceName, d.declaration(), Optional.of(topicId),
                State.READY, Optional.empty(), "materialized"));
    }

    /** The operator refused the resource's current declaration. */
    public void refuse(String resourceName, Refusal refusal, String message) {
        replace(resourceName, d -> new Declared(d.name(), resourceName, d.declaration(), d.topicId(), State.REFUSED,
                Optional.of(refusal), message));
    }

    /** A resource deleted by someone else. */
    public void remove(String resourceName) {
        synchronized (this) {
            resources.remove(resourceName);
        }
        changed();
    }

    private void replace(String resourceName, UnaryOperator<Declared> change) {
        synchronized (this) {
            Declared current = resources.get(resourceName);
            if (current == null) {
                throw new IllegalStateException("no resource " + resourceName);
            }
            resources.put(resourceName, change.apply(current));
        }
        changed();
    }

    private Optional<Write> failure(String resourceName) {
        Result result = failures.poll();
        return result == null ? Optional.empty()
                : Optional.of(Write.failed(result, "the test made this write fail: " + result, resourceName));
    }

    private static Declared pending(String topic, String resourceName, Declaration declaration, Optional<UUID> id) {
        return new Declared(topic, resourceName, declaration, id, State.PENDING, Optional.empty(), "");
    }

    private void changed() {
        listeners.forEach(Runnable::run);
    }
}
