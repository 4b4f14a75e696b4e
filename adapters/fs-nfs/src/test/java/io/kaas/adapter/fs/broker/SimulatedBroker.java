package io.kaas.adapter.fs.broker;

import io.kaas.adapter.fs.ClusterIdFile;
import io.kaas.adapter.fs.DataLayout;
import io.kaas.adapter.fs.JacksonCodec;
import io.kaas.adapter.fs.JsonFiles;
import io.kaas.adapter.fs.JsonMarkerQueue;
import io.kaas.adapter.fs.JsonOffsetStore;
import io.kaas.adapter.fs.JsonProducerFenceLog;
import io.kaas.adapter.fs.JsonProducerIdBlockStore;
import io.kaas.adapter.fs.JsonTopicStore;
import io.kaas.adapter.fs.JsonTransactionStateStore;
import io.kaas.application.cluster.BrokerSettings;
import io.kaas.application.cluster.StandaloneCluster;
import io.kaas.application.cluster.WriteFence;
import io.kaas.application.fake.HeaderStampedRecords;
import io.kaas.application.fetch.FetchPurgatory;
import io.kaas.application.fetch.FetchService;
import io.kaas.application.fetch.ListOffsetsService;
import io.kaas.application.group.GroupCoordinatorService;
import io.kaas.application.log.DiskLogEngine;
import io.kaas.application.log.PartitionLog;
import io.kaas.application.metrics.BrokerMetrics;
import io.kaas.application.port.in.ClusterUseCase;
import io.kaas.application.port.out.Clock;
import io.kaas.application.port.out.Filesystem;
import io.kaas.application.port.out.ProducerIdBlockStore;
import io.kaas.application.port.out.Scheduler;
import io.kaas.application.port.out.TopicStore;
import io.kaas.application.produce.ProduceService;
import io.kaas.application.producer.ProducerIdService;
import io.kaas.application.topic.BrokerConfigService;
import io.kaas.application.topic.ConfigService;
import io.kaas.application.topic.PartitionSweep;
import io.kaas.application.topic.TopicService;
import io.kaas.application.txn.TransactionServices;
import io.kaas.application.txn.TransactionSettings;
import io.kaas.domain.config.BrokerConfigs;
import io.kaas.domain.config.ConfigType;
import io.kaas.domain.group.GroupConfig;
import io.kaas.domain.topic.TopicIds;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

/**
 * A standalone disk broker's services wired as {@code io.kaas.bootstrap.KaasBroker} wires them, over
 * any {@link Filesystem}, with the clock, scheduler, I/O executor and random ids handed in - so a
 * test decides when every timer and every file task runs. Everything KaasBroker builds for disk
 * storage is here in the same order; left out are the network server and the use cases only the
 * wire calls that the simulation's workload does not (Metadata, DeleteRecords, LogDirs, leadership).
 *
 * <p>One instance is one broker process: {@link #start} is its startup (recovery included), {@link
 * #close} its clean shutdown's stop sequence (the caller then drains the I/O executor, as
 * {@code KaasBroker.close} awaits its I/O threads). A crashed process is simply abandoned.
 */
final class SimulatedBroker {
    static final Path DATA_DIR = Path.of("/data");
    static final int BROKER_ID = 0;
    /** KaasBroker's defaults ({@code BrokerConfig}): KAAS_FSYNC_MAX_LATENCY_MS and the sweep intervals. */
    static final long FSYNC_MAX_LATENCY_MS = 30_000;
    static final long RETENTION_CHECK_INTERVAL_MS = 300_000;
    static final int PRODUCER_ID_EXPIRATION_MS = 86_400_000;
    static final int PRODUCER_ID_EXPIRATION_CHECK_INTERVAL_MS = 600_000;

    final String clusterId;
    final DiskLogEngine engine;
    final TopicService topics;
    final ConfigService configs;
    final ProduceService produce;
    final FetchService fetch;
    final ListOffsetsService listOffsets;
    final ProducerIdService producerIds;
    final TransactionServices transactions;
    final GroupCoordinatorService groups;
    /** Background work first, then the logs it writes to (KaasBroker's order, without its threads). */
    private final List<Runnable> stopSequence;

    private SimulatedBroker(String clusterId, DiskLogEngine engine, TopicService topics, ConfigService configs,
                            ProduceService produce, FetchService fetch, ListOffsetsService listOffsets,
                            ProducerIdService producerIds, TransactionServices transactions,
                            GroupCoordinatorService groups, List<Runnable> stopSequence) {
        this.clusterId = clusterId;
        this.engine = engine;
        this.topics = topics;
        this.configs = configs;
        this.produce = produce;
        this.fetch = fetch;
        this.listOffsets = listOffsets;
        this.producerIds = producerIds;
        this.transactions = transactions;
        this.groups = groups;
        this.stopSequence = stopSequence;
    }

    /**
     * The broker's settings as KaasBroker derives them from an environment that sets only
     * {@code KAAS_SEGMENT_BYTES}: in particular {@code log.flush.interval.messages=1}, so acks=-1
     * waits for an fsync.
     */
    static BrokerConfigs brokerConfigs(int segmentBytes) {
        return BrokerConfigs.of(List.of(
                BrokerConfigs.Entry.of("broker.id", Integer.toString(BROKER_ID), "0", false, ConfigType.INT, "id"),
                BrokerConfigs.Entry.ofDefault("log.flush.interval.messages", "1", ConfigType.LONG, "flush"),
                BrokerConfigs.Entry.of("log.segment.bytes", Integer.toString(segmentBytes),
                        Integer.toString(1024 * 1024 * 1024), true, ConfigType.INT, "segment size")));
    }

    /** Starts a broker process on {@code fs}: recovers every topic's logs, loads the cluster state, starts the sweeps. */
    static SimulatedBroker start(Filesystem fs, BrokerConfigs brokerConfigs, DiskLogEngine.Journal journal, Clock clock,
                                 Scheduler scheduler, Executor io, Supplier<UUID> randomIds) {
        DataLayout layout = new DataLayout(DATA_DIR);
        JacksonCodec codec = new JacksonCodec();
        JsonFiles json = new JsonFiles(fs, codec);
        BrokerSettings settings = new BrokerSettings(BROKER_ID, 1, false, BrokerSettings.DEFAULT_MAX_PARTITIONS_PER_TOPIC);

        TopicStore topicStore = new JsonTopicStore(layout, json);
        ProducerIdBlockStore pidStore = new JsonProducerIdBlockStore(layout, json, BROKER_ID);
        String clusterId = ClusterIdFile.loadOrCreate(layout, json, () -> newClusterId(randomIds));

        FetchPurgatory purgatory = new FetchPurgatory();
        DiskLogEngine engine = new DiskLogEngine(new DiskLogEngine.Settings(DATA_DIR, 0, FSYNC_MAX_LATENCY_MS)
                .withJournal(journal), fs, codec, io, scheduler, clock, purgatory);
        TopicService topics = new TopicService(topicStore, engine, settings, brokerConfigs, randomIds);
        topics.start();
        PartitionSweep retention = PartitionSweep.start("the retention sweep", topics, scheduler, io, clock,
                RETENTION_CHECK_INTERVAL_MS, PartitionLog::applyRetention);
        PartitionSweep producerExpiry = PartitionSweep.start("the producer-id expiry", topics, scheduler, io, clock,
                PRODUCER_ID_EXPIRATION_CHECK_INTERVAL_MS,
                (log, now) -> log.expireProducers(now, PRODUCER_ID_EXPIRATION_MS));

        ClusterUseCase cluster = new StandaloneCluster(clusterId, BROKER_ID, "localhost", () -> 9092, null);
        ProducerIdService producerIds = new ProducerIdService(BROKER_ID, pidStore, io);
        TransactionServices transactions = TransactionServices.create(TransactionSettings.DEFAULTS,
                new JsonTransactionStateStore(layout, json), new JsonMarkerQueue(layout, json),
                new JsonProducerFenceLog(layout, json, BROKER_ID), topics, cluster, producerIds, clock, scheduler, io);
        GroupCoordinatorService groups = new GroupCoordinatorService(GroupConfig.DEFAULTS,
                new JsonOffsetStore(layout, json), topics, cluster, clock, scheduler, io, randomIds,
                transactions.coordinator());
        topics.addDeletionListener(groups::onTopicDeleted);
        groups.start();
        transactions.bindGroups(groups);
        transactions.start();
        List<Runnable> stopSequence = List.of(transactions::close, groups::close, producerExpiry::close,
                retention::close, engine::close);
        return new SimulatedBroker(clusterId, engine, topics,
                new ConfigService(topics, BrokerConfigService.fixed(brokerConfigs, BROKER_ID), BROKER_ID),
                new ProduceService(topics, clock, scheduler, transactions.coordinator(), WriteFence.OPEN, // partition verification on
                        BrokerMetrics.unobserved()),
                new FetchService(topics, purgatory, scheduler, io),
                new ListOffsetsService(topics, io, new HeaderStampedRecords()),
                producerIds, transactions, groups, stopSequence);
    }

    /** Clean shutdown: stops the background work and closes every log; the caller then drains the I/O queue. */
    void close() {
        stopSequence.forEach(Runnable::run);
    }

    private static String newClusterId(Supplier<UUID> randomIds) {
        UUID id;
        do {
            id = randomIds.get();
        } while (!TopicIds.isUsable(id));
        return TopicIds.toBase64(id);
    }
}
