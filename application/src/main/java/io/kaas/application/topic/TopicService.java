package io.kaas.application.topic;

import io.kaas.application.cluster.BrokerSettings;
import io.kaas.application.log.LogConfig;
import io.kaas.application.log.LogEngine;
import io.kaas.application.log.PartitionLog;
import io.kaas.application.port.in.MutationQuota;
import io.kaas.application.port.in.Outcome;
import io.kaas.application.port.in.TopicAdminUseCase.CreateCommand;
import io.kaas.application.port.in.TopicAdminUseCase.CreatePartitionsCommand;
import io.kaas.application.port.in.TopicAdminUseCase.CreateResult;
import io.kaas.application.port.in.TopicAdminUseCase.DeleteResult;
import io.kaas.application.port.out.TopicCatalog;
import io.kaas.application.port.out.TopicStore;
import io.kaas.domain.config.BrokerConfigs;
import io.kaas.domain.config.TopicConfig;
import io.kaas.domain.config.TopicConfigs;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.error.KafkaException;
import io.kaas.domain.topic.Topic;
import io.kaas.domain.topic.TopicIds;
import io.kaas.domain.topic.TopicPartition;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The topics this broker serves, their effective configurations and their open partition logs.
 * Changes (create, grow, reconfigure, delete) are serialised and reach the store before they are
 * served; a change that fails part-way is undone, so nothing is left half-created. Lookups are
 * lock-free.
 *
 * <p>A standalone broker opens every partition of every topic. In a cluster ({@link #forCluster})
 * the store is the shared volume, which only the operator writes: topics are known to every broker
 * ({@link #refresh} reads what the operator materialised, and serves it while the {@link TopicCatalog}
 * declares it), but a partition's log is open only on its leader, from {@link #takeOver} to
 * {@link #relinquish}, as the assignment says.
 */
public final class TopicService implements TopicConfigWriter {
    private static final Logger LOG = LoggerFactory.getLogger(TopicService.class);

    private final TopicStore store;
    private final LogEngine engine;
    /** Replaced when a dynamic broker config changes the topics' defaults. */
    private volatile BrokerConfigs brokerConfigs;
    private final Supplier<UUID> randomIds;
    private final TopicAdminRules rules;
    /** Standalone: every partition's log opens with its topic. In a cluster the assignment opens them. */
    private final boolean opensEveryPartition;
    /** In a cluster, which of the topics on the volume are still declared; standalone, none is consulted. */
    private final Optional<TopicCatalog> catalog;
    private final Map<String, Registered> byName = new ConcurrentHashMap<>();
    private final Map<UUID, Topic> byId = new ConcurrentHashMap<>();
    private final Map<TopicPartition, PartitionLog> logs = new ConcurrentHashMap<>();
    private final List<Consumer<Topic>> deletionListeners = new CopyOnWriteArrayList<>();
    private final List<Runnable> refreshListeners = new CopyOnWriteArrayList<>();

    /** A served topic with its configuration resolved once, not on every produce. */
    private record Registered(Topic topic, TopicConfig config) {
    }

    /**
     * @param brokerConfigs the broker's settings, where topic configs take their defaults from
     */
    public TopicService(TopicStore store, LogEngine engine, BrokerSettings settings, BrokerConfigs brokerConfigs,
                        Supplier<UUID> randomIds) {
        this(store, engine, settings, brokerConfigs, randomIds, Optional.empty());
    }

    private TopicService(TopicStore store, LogEngine engine, BrokerSettings settings, BrokerConfigs brokerConfigs,
                         Supplier<UUID> randomIds, Optional<TopicCatalog> catalog) {
        this.store = store;
        this.engine = engine;
        this.brokerConfigs = brokerConfigs;
        this.randomIds = randomIds;
        this.rules = new TopicAdminRules(settings, () -> this.brokerConfigs, id -> id == settings.brokerId());
        this.opensEveryPartition = catalog.isEmpty();
        this.catalog = catalog;
    }

    /**
     * A cluster broker's topics: the topic files on the shared volume, served while {@code catalog} declares them
     * (all of them until it has listed what it declares), their logs open only where this broker leads.
     */
    public static TopicService forCluster(TopicStore sharedStore, TopicCatalog catalog, LogEngine engine,
                                          BrokerSettings settings, BrokerConfigs brokerConfigs,
                                          Supplier<UUID> randomIds) {
        return new TopicService(sharedStore, engine, settings, brokerConfigs, randomIds, Optional.of(catalog));
    }

    /** Calls {@code listener} after a {@link #refresh} that changed what is served, on the refreshing thread. */
    public void addRefreshListener(Runnable listener) {
        refreshListeners.add(listener);
    }

    /**
     * Calls {@code listener} after each topic deletion, on the deleting thread; it must not block
     * (the group coordinator purges the topic's committed offsets this way).
     */
    public void addDeletionListener(Consumer<Topic> listener) {
        deletionListeners.add(listener);
    }

    /**
     * Takes topic defaults from {@code configs} from now on: every topic without its own value for
     * a config gets the new default, its open logs included (Apache's dynamic {@code log.*} configs).
     */
    public synchronized void useBrokerConfigs(BrokerConfigs configs) {
        brokerConfigs = configs;
        for (Registered registered : List.copyOf(byName.values())) {
            reconfigure(registered.topic());
        }
    }

    /** Loads the stored topics and opens their logs. */
    public synchronized void start() {
        for (Topic topic : declared(store.loadAll())) {
            register(topic, openAll(topic, 0));
        }
    }

    /** The open log of a partition this broker serves. */
    public Optional<PartitionLog> log(TopicPartition partition) {
        return Optional.ofNullable(logs.get(partition));
    }

    /**
     * Why a partition has no open log here: another broker leads it (NOT_LEADER_OR_FOLLOWER, which
     * clients answer with a metadata refresh), or it does not exist.
     */
    public KafkaError notServedHere(TopicPartition partition) {
        return byName(partition.topic()).filter(t -> t.hasPartition(partition.partition())).isPresent()
                ? KafkaError.NOT_LEADER_OR_FOLLOWER : KafkaError.UNKNOWN_TOPIC_OR_PARTITION;
    }

    /** Every open partition log. */
    public Collection<PartitionLog> logs() {
        return List.copyOf(logs.values());
    }

    /** The effective configuration of a served topic. */
    public Optional<TopicConfig> config(String topic) {
        return Optional.ofNullable(byName.get(topic)).map(Registered::config);
    }

    /** The configuration a topic with these overrides would have on this broker. */
    public TopicConfig resolve(Map<String, String> overrides) {
        return TopicConfig.resolve(brokerConfigs.topicDefaults(), overrides);
    }

    public Optional<Topic> byName(String name) {
        return Optional.ofNullable(byName.get(name)).map(Registered::topic);
    }

    public Optional<Topic> byId(UUID id) {
        return Optional.ofNullable(byId.get(id));
    }

    public Collection<Topic> all() {
        return byName.values().stream().map(Registered::topic).toList();
    }

    // ------------------------------------------------------------------------------------------ create

    /**
     * Creates a topic, or with {@code validateOnly} checks everything a creation would (name, existence, partitions,
     * replica assignment, configs, the partition limit) and creates nothing. A failed creation leaves nothing behind.
     */
    public CreateResult create(CreateCommand command) {
        return create(command, MutationQuota.UNBOUNDED);
    }

    /** {@link #create(CreateCommand)}, charging the topic's partitions to {@code quota} once every check passed. */
    public synchronized CreateResult create(CreateCommand command, MutationQuota quota) {
        requireOwnWrites();
        String name = command.name();
        TopicAdminRules.Checked checked = rules.create(command, byName.keySet());
        if (checked.refusal().isPresent()) {
            return failed(checked.refusal().get().error(), checked.refusal().get().message());
        }
        int partitions = checked.partitions();
        if (!quota.tryCharge(partitions)) {
            return failed(MutationQuota.EXCEEDED.error(), MutationQuota.EXCEEDED.message());
        }
        Topic topic = new Topic(name, newTopicId(), partitions, command.configs());
        if (!command.validateOnly()) {
            try {
                store.save(topic);
                register(topic, openAll(topic, 0));
            } catch (RuntimeException e) {
                LOG.error("creating topic {} failed; removing what was made of it", name, e);
                undoCreate(topic);
                return failed(KafkaError.UNKNOWN_SERVER_ERROR, "Creating topic '" + name + "' failed: " + e.getMessage());
            }
            LOG.info("created topic {} (id {}) with {} partition(s) and overrides {}", name, TopicIds.toBase64(topic.id()),
                    partitions, topic.configs());
        }
        return new CreateResult(KafkaError.NONE, null, topic);
    }

    private void undoCreate(Topic topic) {
        byName.remove(topic.name());
        byId.remove(topic.id());
        for (int p = 0; p < topic.partitionCount(); p++) {
            logs.remove(topic.partition(p));
        }
        try {
            engine.delete(topic);
        } catch (RuntimeException e) {
            LOG.warn("could not remove the partitions of the failed topic {}", topic.name(), e);
        }
        try {
            store.delete(topic);
        } catch (RuntimeException e) {
            LOG.warn("could not remove the definition of the failed topic {}; the next start clears it", topic.name(), e);
        }
    }

    // ------------------------------------------------------------------------------------------ grow

    /**
     * Grows a topic to {@code command.count()} partitions (CreatePartitions). Never shrinks; the same count is
     * INVALID_PARTITIONS, as in Apache. New partitions start empty and are served at once.
     */
    public Outcome createPartitions(CreatePartitionsCommand command) {
        return createPartitions(command, MutationQuota.UNBOUNDED);
    }

    /** {@link #createPartitions(CreatePartitionsCommand)}, charging the partitions added to {@code quota}. */
    public synchronized Outcome createPartitions(CreatePartitionsCommand command, MutationQuota quota) {
        requireOwnWrites();
        Registered registered = byName.get(command.name());
        if (registered == null) {
            return new Outcome(KafkaError.UNKNOWN_TOPIC_OR_PARTITION, null);
        }
        Topic topic = registered.topic();
        Optional<Outcome> refused = rules.grow(topic, command);
        if (refused.isPresent()) {
            return refused.get();
        }
        if (!quota.tryCharge(command.count() - topic.partitionCount())) {
            return MutationQuota.EXCEEDED;
        }
        if (command.validateOnly()) {
            return Outcome.OK;
        }
        int current = topic.partitionCount();
        Topic grown = new Topic(topic.name(), topic.id(), command.count(), topic.configs());
        List<PartitionLog> added;
        try {
            added = openAll(grown, current);
        } catch (RuntimeException e) {
            LOG.error("opening the new partitions of {} failed", topic.name(), e);
            deleteQuietly(grown, current);
            return new Outcome(KafkaError.KAFKA_STORAGE_ERROR, "Creating partitions of '" + topic.name() + "' failed: "
                    + e.getMessage());
        }
        try {
            store.save(grown); // the new count exists from here on
        } catch (RuntimeException e) {
            LOG.error("storing the new partition count of {} failed", topic.name(), e);
            deleteQuietly(grown, current);
            return new Outcome(KafkaError.KAFKA_STORAGE_ERROR, "Creating partitions of '" + topic.name() + "' failed: "
                    + e.getMessage());
        }
        register(grown, added);
        LOG.info("grew topic {} from {} to {} partitions", topic.name(), current, command.count());
        return Outcome.OK;
    }

    private void deleteQuietly(Topic topic, int fromPartition) {
        for (int p = fromPartition; p < topic.partitionCount(); p++) {
            try {
                engine.deletePartition(topic.partition(p));
            } catch (RuntimeException e) {
                LOG.warn("could not remove {}; a later grow clears it", topic.partition(p), e);
            }
        }
    }

    // ------------------------------------------------------------------------------------------ configure

    /**
     * Replaces a topic's overrides with {@code change} applied to them, after validating the result
     * (before checking that the topic exists, as Apache does). The new configuration is stored, then
     * applied to every partition log from its next append, roll or retention pass on.
     *
     * @param change may throw {@link KafkaException} to refuse the change
     */
    @Override
    public synchronized Outcome updateConfigs(String name, UnaryOperator<Map<String, String>> change,
                                              boolean validateOnly) {
        requireOwnWrites();
        Registered registered = byName.get(name);
        Map<String, String> next;
        try {
            next = change.apply(registered == null ? Map.of() : registered.topic().configs());
            TopicConfigs.validate(next, brokerConfigs.topicDefaults());
        } catch (KafkaException e) {
            return new Outcome(e.error(), e.getMessage());
        }
        if (registered == null) {
            return new Outcome(KafkaError.UNKNOWN_TOPIC_OR_PARTITION, "The topic '" + name + "' does not exist.");
        }
        if (validateOnly || next.equals(registered.topic().configs())) {
            return Outcome.OK;
        }
        Topic topic = registered.topic();
        Topic updated = new Topic(topic.name(), topic.id(), topic.partitionCount(), next);
        try {
            store.save(updated);
        } catch (RuntimeException e) {
            LOG.error("storing the configs of {} failed", name, e);
            return new Outcome(KafkaError.UNKNOWN_SERVER_ERROR, "Storing the configs of '" + name + "' failed: "
                    + e.getMessage());
        }
        reconfigure(updated);
        LOG.info("topic {} now overrides {}", name, next);
        return Outcome.OK;
    }

    /** Serves {@code updated}'s configs, on its open logs too from their next append, roll or retention pass. */
    private void reconfigure(Topic updated) {
        TopicConfig config = resolve(updated.configs());
        LogConfig logConfig = LogConfig.of(config);
        byName.put(updated.name(), new Registered(updated, config));
        byId.put(updated.id(), updated);
        for (int p = 0; p < updated.partitionCount(); p++) {
            PartitionLog log = logs.get(updated.partition(p));
            if (log != null) {
                log.updateConfig(logConfig);
            }
        }
    }

    // ------------------------------------------------------------------------------------------ delete

    public DeleteResult deleteByName(String name) {
        return deleteByName(name, MutationQuota.UNBOUNDED);
    }

    /** Deletes a topic, charging its partitions to {@code quota} once it is found. */
    public synchronized DeleteResult deleteByName(String name, MutationQuota quota) {
        requireOwnWrites();
        Registered registered = byName.get(name);
        if (registered == null) {
            return new DeleteResult(KafkaError.UNKNOWN_TOPIC_OR_PARTITION,
                    "This server does not host this topic-partition.", null);
        }
        return delete(registered.topic(), quota);
    }

    public DeleteResult deleteById(UUID id) {
        return deleteById(id, MutationQuota.UNBOUNDED);
    }

    public synchronized DeleteResult deleteById(UUID id, MutationQuota quota) {
        requireOwnWrites();
        Topic topic = byId.get(id);
        if (topic == null) {
            return new DeleteResult(KafkaError.UNKNOWN_TOPIC_ID, "This server does not host this topic ID.", null);
        }
        return delete(topic, quota);
    }

    /**
     * The stored definition goes first: it is what makes the topic exist, so until its removal is
     * durable the topic is still served - and stays served, its definition stored again, when that
     * fails. Were it unserved while a restart could still find it, its transactions would complete
     * without markers there (the coordinator skips partitions that no longer exist), and the topic
     * would come back with transactions open for good.
     */
    private DeleteResult delete(Topic topic, MutationQuota quota) {
        if (!quota.tryCharge(topic.partitionCount())) {
            return new DeleteResult(MutationQuota.EXCEEDED.error(), MutationQuota.EXCEEDED.message(), null);
        }
        try {
            store.delete(topic);
        } catch (RuntimeException e) {
            LOG.error("deleting topic {} failed; it is kept", topic.name(), e);
            try {
                store.save(topic); // the failed removal may be half done: store it whole again
            } catch (RuntimeException again) {
                LOG.error("storing topic {} again failed too; after a restart it may be gone", topic.name(), again);
            }
            return new DeleteResult(KafkaError.UNKNOWN_SERVER_ERROR, "Deleting topic '" + topic.name() + "' failed: "
                    + e.getMessage(), null);
        }
        byName.remove(topic.name());
        byId.remove(topic.id());
        for (int p = 0; p < topic.partitionCount(); p++) {
            logs.remove(topic.partition(p));
        }
        try {
            engine.delete(topic); // closes its logs and removes what the store left of their files
        } catch (RuntimeException e) {
            LOG.warn("topic {} is deleted, but not all of its partition files could be removed", topic.name(), e);
        }
        LOG.info("deleted topic {} (id {})", topic.name(), TopicIds.toBase64(topic.id()));
        deletionListeners.forEach(listener -> listener.accept(topic));
        return new DeleteResult(KafkaError.NONE, null, topic);
    }

    // ------------------------------------------------------------------------------------------ cluster

    /**
     * Opens a partition's log as its leader at {@code leaderEpoch} (the assignment gave it to this
     * broker); false when the topic or partition is not known here (yet: see {@link #refresh}).
     */
    public synchronized boolean takeOver(TopicPartition partition, int leaderEpoch) {
        if (logs.containsKey(partition)) {
            return true;
        }
        Registered registered = byName.get(partition.topic());
        if (registered == null || !registered.topic().hasPartition(partition.partition())) {
            return false;
        }
        logs.put(partition, engine.takeOver(registered.topic(), partition, LogConfig.of(registered.config()), leaderEpoch));
        LOG.info("took over {} at leader epoch {}", partition, leaderEpoch);
        return true;
    }

    /** Closes a partition's log for the broker the assignment gives it to now. */
    public synchronized void relinquish(TopicPartition partition) {
        if (logs.remove(partition) != null) {
            engine.relinquish(partition);
            LOG.info("relinquished {}", partition);
        }
    }

    /**
     * AlterReplicaLogDirs for one partition: see {@link LogEngine#moveLog}. The move's last step swaps the served
     * log under this service's lock, so no topic change runs across it.
     */
    public KafkaError moveLog(TopicPartition partition, String destination) {
        return engine.moveLog(partition, destination, this::swapLog);
    }

    private synchronized boolean swapLog(PartitionLog current, Supplier<PartitionLog> replacement) {
        TopicPartition tp = current.topicPartition();
        if (logs.get(tp) != current) {
            return false;
        }
        logs.remove(tp);
        PartitionLog next = replacement.get();
        if (next != null) {
            logs.put(tp, next);
        }
        return true;
    }

    /** The partitions whose logs are open here. */
    public Set<TopicPartition> openPartitions() {
        return Set.copyOf(logs.keySet());
    }

    /**
     * Learns what changed in the shared store and the catalog: topics the operator created, grew or
     * reconfigured are served here; a topic no longer declared, or no longer on the volume, is
     * forgotten: its logs open here are abandoned, closed without writing anything more, since its
     * directory is the operator's to remove and a topic created again under its name must not
     * receive this incarnation's state. File I/O: call it from a control thread.
     */
    public void refresh() {
        boolean changed;
        synchronized (this) {
            changed = refreshServed();
        }
        if (changed) {
            refreshListeners.forEach(Runnable::run);
        }
    }

    private boolean refreshServed() {
        Map<UUID, Topic> stored = new HashMap<>();
        for (Topic topic : declared(store.loadAll())) {
            stored.put(topic.id(), topic);
        }
        boolean changed = false;
        for (Registered registered : List.copyOf(byName.values())) {
            if (!stored.containsKey(registered.topic().id())) {
                forget(registered.topic());
                changed = true;
            }
        }
        for (Topic topic : stored.values()) {
            Registered known = byName.get(topic.name());
            if (known == null) {
                register(topic, List.of());
                LOG.info("topic {} (id {}) is served: {} partition(s), overrides {}", topic.name(),
                        TopicIds.toBase64(topic.id()), topic.partitionCount(), topic.configs());
                changed = true;
            } else if (!known.topic().equals(topic)) {
                reconfigure(topic);
                changed = true;
            }
        }
        return changed;
    }

    /**
     * The topics on the volume that stand for a declared topic: in a cluster whose catalog has been listed, those it
     * declares with the incarnation on the volume; before that listing (the API server unreachable since this broker
     * started), every topic on the volume, so a broker serves what it has without Kubernetes.
     */
    private List<Topic> declared(List<Topic> onVolume) {
        TopicCatalog.View view = catalog.map(TopicCatalog::view).orElse(TopicCatalog.View.UNSYNCED);
        if (!view.synced()) {
            return onVolume;
        }
        return onVolume.stream()
                .filter(topic -> view.get(topic.name()).filter(d -> d.isIncarnation(topic.id())).isPresent())
                .toList();
    }

    /** A topic that is no longer declared or on the volume: unserved here, its logs open here abandoned. */
    private void forget(Topic topic) {
        byName.remove(topic.name());
        byId.remove(topic.id());
        for (int p = 0; p < topic.partitionCount(); p++) {
            TopicPartition tp = topic.partition(p);
            if (logs.remove(tp) != null) {
                try {
                    engine.abandon(tp);
                } catch (RuntimeException e) {
                    LOG.warn("closing {} of the deleted topic {} failed", tp, topic.name(), e);
                }
            }
        }
        LOG.info("topic {} (id {}) is deleted", topic.name(), TopicIds.toBase64(topic.id()));
        deletionListeners.forEach(listener -> listener.accept(topic));
    }

    // ------------------------------------------------------------------------------------------ registry

    /** Opens the topic's partitions from {@code fromPartition} on; a failure closes and removes those opened. */
    private List<PartitionLog> openAll(Topic topic, int fromPartition) {
        if (!opensEveryPartition) {
            return List.of(); // in a cluster, each partition opens on its leader when the assignment says so
        }
        LogConfig config = LogConfig.of(resolve(topic.configs()));
        List<PartitionLog> opened = new ArrayList<>();
        for (int p = fromPartition; p < topic.partitionCount(); p++) {
            TopicPartition tp = topic.partition(p);
            if (fromPartition > 0) {
                engine.deletePartition(tp); // a new partition starts empty, whatever an interrupted grow left there
            }
            opened.add(engine.open(topic, tp, config));
        }
        return opened;
    }

    /** Serves the topic with {@code opened}, the logs of its partitions not served yet. */
    private void register(Topic topic, List<PartitionLog> opened) {
        for (PartitionLog log : opened) {
            logs.put(log.topicPartition(), log);
        }
        byId.put(topic.id(), topic);
        byName.put(topic.name(), new Registered(topic, resolve(topic.configs())));
    }

    /** In a cluster the operator is the one writer of topic files: changes go through the catalog instead. */
    private void requireOwnWrites() {
        if (catalog.isPresent()) {
            throw new IllegalStateException("a cluster broker writes no topic file: topic changes are KafkaTopic writes"
                    + " (ClusterTopicAdmin)");
        }
    }

    private UUID newTopicId() {
        UUID id;
        do {
            id = randomIds.get();
        } while (!TopicIds.isUsable(id) || byId.containsKey(id));
        return id;
    }

    private static CreateResult failed(KafkaError error, String message) {
        return new CreateResult(error, message, null);
    }
}
