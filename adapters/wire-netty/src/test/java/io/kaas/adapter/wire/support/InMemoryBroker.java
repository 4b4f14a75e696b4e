package io.kaas.adapter.wire.support;

import io.kaas.adapter.wire.KafkaApis;
import io.kaas.adapter.wire.UseCases;
import io.kaas.adapter.wire.codec.KafkaBatchRecordSearch;
import io.kaas.adapter.wire.dispatch.ApiRegistry;
import io.kaas.application.authentication.CredentialCache;
import io.kaas.application.authentication.StoredUserWriter;
import io.kaas.application.authentication.UserScramCredentialService;
import io.kaas.application.cluster.BrokerSettings;
import io.kaas.application.cluster.MetadataService;
import io.kaas.application.cluster.PartitionLeadershipService;
import io.kaas.application.cluster.StandaloneCluster;
import io.kaas.application.cluster.WriteFence;
import io.kaas.application.fake.InMemoryDynamicBrokerConfigStore;
import io.kaas.application.fake.ManualClock;
import io.kaas.application.fake.ManualScheduler;
import io.kaas.application.fetch.FetchPurgatory;
import io.kaas.application.fetch.FetchService;
import io.kaas.application.fetch.FetchSessions;
import io.kaas.application.fetch.ListOffsetsService;
import io.kaas.application.group.GroupCoordinatorService;
import io.kaas.application.log.MemoryLogEngine;
import io.kaas.application.memory.InMemoryClientQuotaStore;
import io.kaas.application.memory.InMemoryCredentialStore;
import io.kaas.application.memory.InMemoryMarkerQueue;
import io.kaas.application.memory.InMemoryOffsetStore;
import io.kaas.application.memory.InMemoryProducerFenceLog;
import io.kaas.application.memory.InMemoryProducerIdBlockStore;
import io.kaas.application.memory.InMemoryTopicStore;
import io.kaas.application.memory.InMemoryTransactionStateStore;
import io.kaas.application.metrics.BrokerMetrics;
import io.kaas.application.port.in.QuotaEnforcement;
import io.kaas.application.port.in.TopicAdminUseCase;
import io.kaas.application.produce.ProduceService;
import io.kaas.application.quota.ClientQuotaService;
import io.kaas.application.quota.StoredClientQuotaWriter;
import io.kaas.application.producer.ProducerIdService;
import io.kaas.application.topic.BrokerConfigService;
import io.kaas.application.topic.ConfigService;
import io.kaas.application.topic.DeleteRecordsService;
import io.kaas.application.topic.LogDirsService;
import io.kaas.application.topic.StandaloneTopicAdmin;
import io.kaas.application.topic.TopicService;
import io.kaas.application.txn.TransactionServices;
import io.kaas.application.txn.TransactionSettings;
import io.kaas.domain.config.BrokerConfigs;
import io.kaas.domain.config.ConfigType;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.fetch.FetchSessionCache;
import io.kaas.domain.group.GroupConfig;
import io.kaas.domain.topic.Topic;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.function.IntSupplier;

/**
 * The real use cases of a standalone broker in memory mode (what {@code KAAS_STORAGE=memory}
 * runs), with a manual clock and scheduler, I/O run inline, and seeded topic ids, behind the real
 * API registry.
 */
public final class InMemoryBroker {
    public static final String CLUSTER_ID = "kaas-wire-test-cluster";
    public static final int BROKER_ID = 1;
    public static final String HOST = "broker-1.kaas.test";
    public static final String RACK = "zone-a";
    public static final int PORT = 9092;
    public static final int DEFAULT_PARTITIONS = 2;

    /** The most partitions a topic may have on this broker ({@code KAAS_MAX_PARTITIONS_PER_TOPIC}). */
    public static final int MAX_PARTITIONS_PER_TOPIC = 100;
    /** This broker's {@code message.max.bytes}, set explicitly (so reported as STATIC_BROKER_CONFIG). */
    public static final int MESSAGE_MAX_BYTES = 500_000;

    private final ManualClock clock = new ManualClock(1_700_000_000_000L);
    private final ManualScheduler scheduler = new ManualScheduler(clock);
    private final TopicService topics;
    private final BrokerConfigs brokerConfigs;
    private final TransactionServices transactions;
    private final UseCases useCases;
    private final CredentialCache credentials = CredentialCache.load(new InMemoryCredentialStore());
    private final InMemoryClientQuotaStore clientQuotas = new InMemoryClientQuotaStore();

    public InMemoryBroker() {
        this(true);
    }

    /** @param autoCreateTopics the broker's {@code auto.create.topics.enable} */
    public InMemoryBroker(boolean autoCreateTopics) {
        this(autoCreateTopics, HOST, () -> PORT);
    }

    /**
     * A broker that advertises {@code host} and {@code port} in Metadata: what a test serving it on a real
     * socket gives, so that clients reconnect to it.
     */
    public InMemoryBroker(boolean autoCreateTopics, String host, IntSupplier port) {
        BrokerSettings settings = new BrokerSettings(BROKER_ID, DEFAULT_PARTITIONS, autoCreateTopics,
                MAX_PARTITIONS_PER_TOPIC);
        brokerConfigs = BrokerConfigs.of(List.of(
                BrokerConfigs.Entry.of("broker.id", Integer.toString(BROKER_ID), "0", true, ConfigType.INT, "id"),
                BrokerConfigs.Entry.of("message.max.bytes", Integer.toString(MESSAGE_MAX_BYTES),
                        Integer.toString(BrokerSettings.DEFAULT_MESSAGE_MAX_BYTES), true, ConfigType.INT, "batch cap"),
                BrokerConfigs.Entry.ofDefault("num.partitions", Integer.toString(DEFAULT_PARTITIONS), ConfigType.INT,
                        "default partitions"),
                BrokerConfigs.Entry.ofDefault("log.flush.interval.messages", "1", ConfigType.LONG, "fsync every append")));
        Random ids = new Random(42);
        FetchPurgatory purgatory = new FetchPurgatory();
        MemoryLogEngine engine = new MemoryLogEngine(purgatory);
        topics = new TopicService(new InMemoryTopicStore(), engine, settings, brokerConfigs,
                () -> new UUID(ids.nextLong(), ids.nextLong()));
        topics.start();
        StandaloneCluster cluster = new StandaloneCluster(CLUSTER_ID, BROKER_ID, host, port, RACK);
        ProducerIdService producerIds = new ProducerIdService(BROKER_ID, new InMemoryProducerIdBlockStore(), Runnable::run);
        transactions = TransactionServices.create(TransactionSettings.DEFAULTS, new InMemoryTransactionStateStore(),
                new InMemoryMarkerQueue(), new InMemoryProducerFenceLog(BROKER_ID), topics, cluster, producerIds, clock,
                scheduler, Runnable::run);
        GroupCoordinatorService groups = new GroupCoordinatorService(GroupConfig.DEFAULTS, new InMemoryOffsetStore(), topics,
                cluster, clock, scheduler, Runnable::run, () -> new UUID(ids.nextLong(), ids.nextLong()),
                transactions.coordinator());
        transactions.bindGroups(groups);
        transactions.coordinator().load(); // no sweeper: tests that need its passes run them by hand
        useCases = new UseCases(
                new ProduceService(topics, clock, scheduler, transactions.coordinator(), WriteFence.OPEN,
                        BrokerMetrics.unobserved()),
                new FetchService(topics, purgatory, scheduler, Runnable::run, BrokerMetrics.unobserved(),
                        new FetchSessions(FetchSessionCache.DEFAULT_SLOTS, FetchSessionCache.DEFAULT_EVICTION_MS, clock,
                                ids::nextInt)),
                new ListOffsetsService(topics, Runnable::run, new KafkaBatchRecordSearch()),
                new MetadataService(topics, cluster, settings, Runnable::run),
                new StandaloneTopicAdmin(topics),
                cluster,
                producerIds,
                new DeleteRecordsService(topics, Runnable::run),
                new ConfigService(topics, dynamicBrokerConfigs(), BROKER_ID),
                new LogDirsService(topics, engine, Runnable::run),
                groups,
                transactions.coordinator(),
                transactions.markers(),
                transactions.producers(),
                new PartitionLeadershipService(topics, cluster),
                new UserScramCredentialService(credentials, new StoredUserWriter(credentials)),
                new ClientQuotaService(credentials, new StoredUserWriter(credentials), clientQuotas::read,
                        new StoredClientQuotaWriter(clientQuotas, () -> { })),
                QuotaEnforcement.NONE);
    }

    /** The quotas of entities other than a lone named user, as client-quotas.json would hold them. */
    public InMemoryClientQuotaStore clientQuotas() {
        return clientQuotas;
    }

    /** The users SCRAM and PLAIN exchanges verify against, as the credentials file would hold them. */
    public CredentialCache credentials() {
        return credentials;
    }

    /** Dynamic broker configs as a standalone broker keeps them, in memory; the topics follow their defaults. */
    private BrokerConfigService dynamicBrokerConfigs() {
        BrokerConfigService service = BrokerConfigService.stored(brokerConfigs, new InMemoryDynamicBrokerConfigStore(),
                BROKER_ID);
        service.addListener(topics::useBrokerConfigs);
        return service;
    }

    public BrokerConfigs brokerConfigs() {
        return brokerConfigs;
    }

    public UseCases useCases() {
        return useCases;
    }

    /** A fresh registry over this broker's use cases, as {@code KaasBroker} builds it. */
    public ApiRegistry registry() {
        return KafkaApis.registry(useCases);
    }

    public TopicService topics() {
        return topics;
    }

    public TransactionServices transactions() {
        return transactions;
    }

    public ManualScheduler scheduler() {
        return scheduler;
    }

    public ManualClock clock() {
        return clock;
    }

    /** Creates a topic through the admin use case, failing the test if that does not work. */
    public Topic createTopic(String name, int partitions) {
        return createTopic(name, partitions, Map.of());
    }

    /** Creates a topic with config overrides, failing the test if that does not work. */
    public Topic createTopic(String name, int partitions, Map<String, String> configs) {
        TopicAdminUseCase.CreateResult result = topics.create(new TopicAdminUseCase.CreateCommand(name, partitions,
                TopicAdminUseCase.DEFAULT, Map.of(), configs, false));
        if (result.error() != KafkaError.NONE) {
            throw new IllegalStateException("cannot create " + name + ": " + result.error() + " " + result.message());
        }
        return result.topic();
    }
}
