package io.kaas.application.topic;

import io.kaas.application.cluster.BrokerSettings;
import io.kaas.application.port.in.MutationQuota;
import io.kaas.application.port.in.Outcome;
import io.kaas.application.port.in.TopicAdminUseCase;
import io.kaas.application.port.out.Clock;
import io.kaas.application.port.out.Scheduler;
import io.kaas.application.port.out.TopicCatalog;
import io.kaas.application.port.out.TopicCatalog.Declaration;
import io.kaas.application.port.out.TopicCatalog.Declared;
import io.kaas.application.port.out.TopicCatalog.Result;
import io.kaas.application.port.out.TopicCatalog.State;
import io.kaas.application.port.out.TopicCatalog.Write;
import io.kaas.domain.config.BrokerConfigs;
import io.kaas.domain.config.TopicConfigs;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.error.KafkaException;
import io.kaas.domain.topic.Topic;
import io.kaas.domain.topic.TopicIds;
import java.util.Collection;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.function.IntPredicate;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The topic admin APIs of a cluster broker. It writes no topic file: a write becomes a declaration in the
 * {@link TopicCatalog} (a KafkaTopic resource), which the operator alone materialises on the shared volume, and the
 * broker serves what the operator wrote once {@link TopicService#refresh} reads it.
 *
 * <p>CreateTopics, CreatePartitions and DeleteTopics answer once this broker serves the result (the created topic
 * with the id the operator minted, the new partition count, the topic gone), so a client's next request here sees
 * it; an operator's refusal is answered with Apache's error for it, and what is not served within the request's
 * timeout is REQUEST_TIMED_OUT, the declaration kept (it may still complete, as a timed-out creation may in Apache).
 * A catalog that cannot be reached is retried until that timeout. Config changes answer once the catalog took them,
 * as Apache answers once its controller committed them: brokers apply them a moment later.
 *
 * <p>Waits are re-checked whenever the catalog or the served topics change; nothing here blocks a thread on them.
 */
public final class ClusterTopicAdmin implements TopicAdminUseCase, TopicConfigWriter {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterTopicAdmin.class);
    private static final long FIRST_RETRY_MS = 100;
    private static final long LONGEST_RETRY_MS = 2_000;

    private final TopicService topics;
    private final TopicCatalog catalog;
    private final TopicAdminRules rules;
    private final BrokerConfigs brokerConfigs;
    private final Clock clock;
    private final Scheduler scheduler;
    private final Executor io;
    private final Set<Waiter<?>> waiters = ConcurrentHashMap.newKeySet();

    /**
     * Listens to {@code catalog} and {@code topics} from construction on.
     *
     * @param isBroker whether an id names a broker a manual replica assignment may use
     * @param io       where catalog writes run: they block on the API server
     */
    public ClusterTopicAdmin(TopicService topics, TopicCatalog catalog, BrokerSettings settings,
                             BrokerConfigs brokerConfigs, IntPredicate isBroker, Clock clock, Scheduler scheduler,
                             Executor io) {
        this.topics = topics;
        this.catalog = catalog;
        this.rules = new TopicAdminRules(settings, () -> brokerConfigs, isBroker);
        this.brokerConfigs = brokerConfigs;
        this.clock = clock;
        this.scheduler = scheduler;
        this.io = io;
        catalog.onChange(this::recheck);
        topics.addRefreshListener(this::recheck);
    }

    // ------------------------------------------------------------------------------------------ create

    @Override
    public CompletionStage<CreateResult> create(CreateCommand command, long timeoutMs, MutationQuota quota) {
        String name = command.name();
        TopicAdminRules.Checked checked = rules.create(command, knownNames());
        if (checked.refusal().isPresent()) {
            return done(createFailed(checked.refusal().get().error(), checked.refusal().get().message()));
        }
        if (name.startsWith("__")) {
            // The volume's root holds __cluster/, kaas's stand-in for Kafka's internal topics; the operator refuses these.
            return done(createFailed(KafkaError.INVALID_TOPIC_EXCEPTION, "Topic name '" + name
                    + "' starts with '__', which kaas reserves for its cluster state"));
        }
        if (!quota.tryCharge(checked.partitions())) {
            return done(createFailed(MutationQuota.EXCEEDED.error(), MutationQuota.EXCEEDED.message()));
        }
        Declaration declaration = new Declaration(checked.partitions(), command.configs());
        if (command.validateOnly()) {
            // No id is minted by a validation: the operator mints ids.
            return done(new CreateResult(KafkaError.NONE, null, new Topic(name, TopicIds.ZERO, checked.partitions(),
                    command.configs())));
        }
        long deadline = deadline(timeoutMs);
        return write(() -> catalog.create(name, declaration), deadline).thenCompose(write -> switch (write.result()) {
            case DONE -> {
                LOG.info("topic {} declared as {} with {} partition(s) and overrides {}", name, write.resourceName(),
                        declaration.partitions(), declaration.configs());
                yield awaitCreated(name, write.resourceName(), deadline);
            }
            case ALREADY_EXISTS -> done(createFailed(KafkaError.TOPIC_ALREADY_EXISTS, "Topic '" + name
                    + "' already exists."));
            default -> done(createFailed(writeError(write), writeMessage("create topic '" + name + "'", write)));
        }).exceptionally(e -> createFailed(errorOf(e), messageOf(e)));
    }

    /** Until this broker serves the incarnation the operator materialised for {@code resourceName}. */
    private CompletionStage<CreateResult> awaitCreated(String name, String resourceName, long deadline) {
        return await(deadline, () -> {
            Optional<Declared> declared = catalog.view().resource(resourceName);
            if (declared.isEmpty()) {
                return Optional.empty(); // not listed here yet
            }
            if (declared.get().state() == State.REFUSED) {
                retract(resourceName);
                return Optional.of(createFailed(refusalError(declared.get()), declared.get().message()));
            }
            Optional<UUID> id = declared.get().topicId();
            return topics.byName(name).filter(t -> declared.get().state() == State.READY && id.isPresent()
                    && t.id().equals(id.get())).map(t -> new CreateResult(KafkaError.NONE, null, t));
        }, () -> createFailed(KafkaError.REQUEST_TIMED_OUT, "Topic '" + name + "' is declared (KafkaTopic "
                + resourceName + "), but was not materialised and served within the request's timeout."));
    }

    /** Removes a declaration the operator refused, so a failed creation leaves nothing behind. */
    private void retract(String resourceName) {
        io.execute(() -> {
            Write write = catalog.delete(resourceName);
            if (write.result() != Result.DONE && write.result() != Result.NOT_FOUND) {
                LOG.warn("could not remove the refused KafkaTopic {}: {}", resourceName, write.message());
            }
        });
    }

    // ------------------------------------------------------------------------------------------ grow

    @Override
    public CompletionStage<Outcome> createPartitions(CreatePartitionsCommand command, long timeoutMs,
                                                     MutationQuota quota) {
        String name = command.name();
        Optional<Declared> declared = catalog.view().get(name);
        Optional<Topic> current = declared.map(d -> new Topic(name, d.topicId().orElse(TopicIds.ZERO),
                d.declaration().partitions(), d.declaration().configs())).or(() -> topics.byName(name));
        if (current.isEmpty()) {
            return done(new Outcome(KafkaError.UNKNOWN_TOPIC_OR_PARTITION, null));
        }
        Optional<Outcome> refused = rules.grow(current.get(), command);
        if (refused.isPresent()) {
            return done(refused.get());
        }
        if (!quota.tryCharge(command.count() - current.get().partitionCount())) {
            return done(MutationQuota.EXCEEDED);
        }
        if (command.validateOnly()) {
            return done(Outcome.OK);
        }
        if (declared.isEmpty()) {
            return done(notListedYet(name));
        }
        String resourceName = declared.get().resourceName();
        long deadline = deadline(timeoutMs);
        return write(() -> catalog.update(resourceName, stored -> {
            if (stored.partitions() >= command.count()) {
                // Read again from the resource itself: someone grew it since this broker's view.
                throw new KafkaException(KafkaError.INVALID_PARTITIONS, "The topic " + name + " currently has "
                        + stored.partitions() + " partition(s); " + command.count() + " would not be an increase.");
            }
            return stored.withPartitions(command.count());
        }), deadline).thenCompose(write -> {
            if (write.result() != Result.DONE) {
                return done(new Outcome(write.result() == Result.NOT_FOUND ? KafkaError.UNKNOWN_TOPIC_OR_PARTITION
                        : writeError(write), writeMessage("grow topic '" + name + "'", write)));
            }
            LOG.info("topic {} ({}) declared with {} partitions", name, resourceName, command.count());
            return awaitGrown(name, resourceName, command.count(), deadline);
        }).exceptionally(e -> new Outcome(errorOf(e), messageOf(e)));
    }

    private CompletionStage<Outcome> awaitGrown(String name, String resourceName, int count, long deadline) {
        return await(deadline, () -> {
            Optional<Declared> declared = catalog.view().resource(resourceName);
            if (declared.isPresent() && declared.get().state() == State.REFUSED
                    && declared.get().declaration().partitions() == count) {
                return Optional.of(new Outcome(refusalError(declared.get()), declared.get().message()));
            }
            return topics.byName(name).filter(t -> t.partitionCount() >= count).map(t -> Outcome.OK);
        }, () -> new Outcome(KafkaError.REQUEST_TIMED_OUT, "Topic '" + name + "' is declared with " + count
                + " partitions, but they were not materialised and served within the request's timeout."));
    }

    // ------------------------------------------------------------------------------------------ configure

    /**
     * Validates the change against this broker's view first (so an invalid one never reaches the catalog), then
     * applies it again to the declaration as stored, and answers once the catalog took it.
     */
    @Override
    public Outcome updateConfigs(String name, UnaryOperator<Map<String, String>> change, boolean validateOnly) {
        Optional<Declared> declared = catalog.view().get(name);
        Optional<Map<String, String>> current = declared.map(d -> d.declaration().configs())
                .or(() -> topics.byName(name).map(Topic::configs));
        try {
            validated(change.apply(current.orElse(Map.of())));
        } catch (KafkaException e) {
            return new Outcome(e.error(), e.getMessage());
        }
        if (current.isEmpty()) {
            return new Outcome(KafkaError.UNKNOWN_TOPIC_OR_PARTITION, "The topic '" + name + "' does not exist.");
        }
        if (validateOnly) {
            return Outcome.OK;
        }
        if (declared.isEmpty()) {
            return notListedYet(name);
        }
        String resourceName = declared.get().resourceName();
        Write write;
        try {
            write = catalog.update(resourceName, stored -> stored.withConfigs(validated(change.apply(stored.configs()))));
        } catch (KafkaException e) {
            return new Outcome(e.error(), e.getMessage());
        }
        if (write.result() == Result.NOT_FOUND) {
            return new Outcome(KafkaError.UNKNOWN_TOPIC_OR_PARTITION, "The topic '" + name + "' does not exist.");
        }
        if (write.result() != Result.DONE) {
            return new Outcome(writeError(write), writeMessage("change the configs of topic '" + name + "'", write));
        }
        LOG.info("topic {} ({}) declared with new overrides", name, resourceName);
        return Outcome.OK;
    }

    private Map<String, String> validated(Map<String, String> configs) {
        TopicConfigs.validate(configs, brokerConfigs.topicDefaults());
        return configs;
    }

    // ------------------------------------------------------------------------------------------ delete

    @Override
    public CompletionStage<DeleteResult> deleteByName(String name, long timeoutMs, MutationQuota quota) {
        Optional<Declared> declared = catalog.view().get(name);
        Optional<Topic> served = topics.byName(name);
        if (declared.isEmpty() && served.isEmpty()) {
            return done(new DeleteResult(KafkaError.UNKNOWN_TOPIC_OR_PARTITION,
                    "This server does not host this topic-partition.", null));
        }
        return delete(name, declared, served, timeoutMs, quota);
    }

    @Override
    public CompletionStage<DeleteResult> deleteById(UUID id, long timeoutMs, MutationQuota quota) {
        Optional<Topic> served = topics.byId(id);
        Optional<Declared> declared = served.isPresent() ? catalog.view().get(served.get().name())
                : catalog.view().byId(id);
        if (declared.isEmpty() && served.isEmpty()) {
            return done(new DeleteResult(KafkaError.UNKNOWN_TOPIC_ID, "This server does not host this topic ID.", null));
        }
        return delete(served.map(Topic::name).orElseGet(() -> declared.get().name()), declared, served, timeoutMs,
                quota);
    }

    /**
     * Removes the declaring resource, then waits until neither this broker's catalog view nor its served topics hold
     * the topic, so a CreateTopics of the same name sent here next is not refused as existing. Past the timeout the
     * deletion stands all the same: the resource is gone.
     */
    private CompletionStage<DeleteResult> delete(String name, Optional<Declared> declared, Optional<Topic> served,
                                                 long timeoutMs, MutationQuota quota) {
        if (declared.isEmpty()) {
            return done(new DeleteResult(notListedYet(name).error(), notListedYet(name).message(), null));
        }
        String resourceName = declared.get().resourceName();
        Topic topic = served.orElseGet(() -> new Topic(name, declared.get().topicId().orElse(TopicIds.ZERO),
                declared.get().declaration().partitions(), declared.get().declaration().configs()));
        if (!quota.tryCharge(topic.partitionCount())) {
            return done(new DeleteResult(MutationQuota.EXCEEDED.error(), MutationQuota.EXCEEDED.message(), null));
        }
        long deadline = deadline(timeoutMs);
        return write(() -> catalog.delete(resourceName), deadline).thenCompose(write -> {
            if (write.result() == Result.NOT_FOUND) {
                return done(new DeleteResult(KafkaError.UNKNOWN_TOPIC_OR_PARTITION,
                        "This server does not host this topic-partition.", null));
            }
            if (write.result() != Result.DONE) {
                return done(new DeleteResult(writeError(write), writeMessage("delete topic '" + name + "'", write), null));
            }
            LOG.info("topic {} (id {}) deleted: KafkaTopic {} removed", name, TopicIds.toBase64(topic.id()), resourceName);
            DeleteResult deleted = new DeleteResult(KafkaError.NONE, null, topic);
            return await(deadline, () -> catalog.view().resource(resourceName).isEmpty()
                    && topics.byName(name).filter(t -> t.id().equals(topic.id())).isEmpty()
                    ? Optional.of(deleted) : Optional.empty(), () -> deleted);
        }).exceptionally(e -> new DeleteResult(errorOf(e), messageOf(e), null));
    }

    // ------------------------------------------------------------------------------------------ lookups

    @Override
    public Optional<Topic> byName(String name) {
        return topics.byName(name);
    }

    @Override
    public Optional<Topic> byId(UUID id) {
        return topics.byId(id);
    }

    @Override
    public Collection<Topic> all() {
        return topics.all();
    }

    // ------------------------------------------------------------------------------------------ plumbing

    /** Every topic name declared or served here. */
    private Set<String> knownNames() {
        Set<String> names = new HashSet<>(catalog.view().topics().keySet());
        topics.all().forEach(t -> names.add(t.name()));
        return names;
    }

    private long deadline(long timeoutMs) {
        return clock.nowMs() + Math.max(0, timeoutMs);
    }

    /** Runs {@code attempt} now, and again with a growing backoff while the catalog is unavailable and time remains. */
    private CompletionStage<Write> write(Supplier<Write> attempt, long deadlineMs) {
        CompletableFuture<Write> written = new CompletableFuture<>();
        attempt(attempt, deadlineMs, FIRST_RETRY_MS, written);
        return written;
    }

    private void attempt(Supplier<Write> attempt, long deadlineMs, long backoffMs, CompletableFuture<Write> written) {
        Write write;
        try {
            write = attempt.get();
        } catch (RuntimeException e) {
            written.completeExceptionally(e);
            return;
        }
        if (write.result() == Result.UNAVAILABLE && clock.nowMs() + backoffMs < deadlineMs) {
            LOG.debug("the topic catalog is unavailable ({}); retrying in {} ms", write.message(), backoffMs);
            // The scheduler's thread only hands the retry on: the write blocks on the API server.
            scheduler.schedule(() -> io.execute(() -> attempt(attempt, deadlineMs,
                    Math.min(LONGEST_RETRY_MS, backoffMs * 2), written)), backoffMs);
            return;
        }
        written.complete(write);
    }

    /** Completes with what {@code outcome} finds once it finds something, or with {@code timedOut} at the deadline. */
    private <R> CompletionStage<R> await(long deadlineMs, Supplier<Optional<R>> outcome, Supplier<R> timedOut) {
        Waiter<R> waiter = new Waiter<>(outcome);
        waiters.add(waiter);
        waiter.timeout = scheduler.schedule(() -> waiter.finish(timedOut.get()), Math.max(0, deadlineMs - clock.nowMs()));
        waiter.check();
        return waiter.future;
    }

    private void recheck() {
        for (Waiter<?> waiter : waiters) {
            waiter.check();
        }
    }

    /** One admin write waiting to be served here. */
    private final class Waiter<R> {
        final Supplier<Optional<R>> outcome;
        final CompletableFuture<R> future = new CompletableFuture<>();
        volatile Scheduler.Cancellable timeout;

        Waiter(Supplier<Optional<R>> outcome) {
            this.outcome = outcome;
        }

        synchronized void check() {
            if (!future.isDone()) {
                outcome.get().ifPresent(this::finish);
            }
        }

        void finish(R result) {
            if (future.complete(result)) {
                waiters.remove(this);
                Scheduler.Cancellable pending = timeout;
                if (pending != null) {
                    pending.cancel();
                }
            }
        }
    }

    private static Outcome notListedYet(String name) {
        return new Outcome(KafkaError.REQUEST_TIMED_OUT, "Topic '" + name + "' is not in this broker's view of the"
                + " topic catalog yet (the API server has not been reached since it started).");
    }

    private static KafkaError refusalError(Declared declared) {
        return switch (declared.refusal().orElse(TopicCatalog.Refusal.OTHER)) {
            case INVALID_TOPIC_NAME -> KafkaError.INVALID_TOPIC_EXCEPTION;
            case INVALID_PARTITIONS, PARTITION_DECREASE -> KafkaError.INVALID_PARTITIONS;
            case INVALID_CONFIG -> KafkaError.INVALID_CONFIG;
            case TOPIC_NAME_CONFLICT -> KafkaError.TOPIC_ALREADY_EXISTS;
            case OTHER -> KafkaError.POLICY_VIOLATION;
        };
    }

    /** A failed write's error, as the book maps them: RBAC is CLUSTER_AUTHORIZATION_FAILED, unreachable a timeout. */
    private static KafkaError writeError(Write write) {
        return switch (write.result()) {
            case FORBIDDEN -> KafkaError.CLUSTER_AUTHORIZATION_FAILED;
            case UNAVAILABLE -> KafkaError.REQUEST_TIMED_OUT;
            case ALREADY_EXISTS -> KafkaError.TOPIC_ALREADY_EXISTS;
            case NOT_FOUND -> KafkaError.UNKNOWN_TOPIC_OR_PARTITION;
            default -> KafkaError.UNKNOWN_SERVER_ERROR;
        };
    }

    private static String writeMessage(String what, Write write) {
        return "Could not " + what + " in the topic catalog: " + write.message();
    }

    private static KafkaError errorOf(Throwable failure) {
        Throwable cause = unwrap(failure);
        return cause instanceof KafkaException ke ? ke.error() : KafkaError.UNKNOWN_SERVER_ERROR;
    }

    private static String messageOf(Throwable failure) {
        return unwrap(failure).getMessage();
    }

    private static Throwable unwrap(Throwable failure) {
        Throwable cause = failure;
        while (cause instanceof CompletionException && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }

    private static CreateResult createFailed(KafkaError error, String message) {
        return new CreateResult(error, message, null);
    }

    private static <T> CompletionStage<T> done(T value) {
        return CompletableFuture.completedFuture(value);
    }
}
