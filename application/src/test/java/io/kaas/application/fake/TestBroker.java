package io.kaas.application.fake;

import io.kaas.application.cluster.BrokerSettings;
import io.kaas.application.fake.ManualClock;
import io.kaas.application.fake.ManualScheduler;
import io.kaas.application.log.LogEngine;
import io.kaas.application.log.MemoryLogEngine;
import io.kaas.application.memory.InMemoryTopicStore;
import io.kaas.application.port.in.TopicAdminUseCase;
import io.kaas.application.port.out.TopicStore;
import io.kaas.application.produce.ProduceService;
import io.kaas.application.topic.BrokerConfigService;
import io.kaas.application.topic.ConfigService;
import io.kaas.application.topic.TopicService;
import io.kaas.domain.config.BrokerConfigs;
import io.kaas.domain.config.ConfigType;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.topic.Topic;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;

/**
 * A standalone broker's topic, config and produce services over memory storage, with a manual
 * clock: what the admin use cases are tested against.
 */
public final class TestBroker {
    public static final int BROKER_ID = 3;
    public static final int MAX_PARTITIONS = 8;
    /** Set "in the environment", so DescribeConfigs reports it as STATIC_BROKER_CONFIG. */
    public static final String RETENTION_MS = "3600000";

    public final ManualClock clock = new ManualClock(1_700_000_000_000L);
    public final ManualScheduler scheduler = new ManualScheduler(clock);
    public final InMemoryTopicStore store = new InMemoryTopicStore();
    public final BrokerConfigs brokerConfigs = BrokerConfigs.of(List.of(
            BrokerConfigs.Entry.of("log.retention.ms", RETENTION_MS, "604800000", true, ConfigType.LONG, "retention"),
            BrokerConfigs.Entry.ofDefault("log.flush.interval.messages", "1", ConfigType.LONG, "flush"),
            BrokerConfigs.Entry.ofDefault("message.max.bytes", "10000", ConfigType.INT, "batch cap"),
            BrokerConfigs.Entry.of("broker.id", Integer.toString(BROKER_ID), "0", true, ConfigType.INT, "id")));
    public final BrokerSettings settings = new BrokerSettings(BROKER_ID, 1, true, MAX_PARTITIONS);
    public final LogEngine engine;
    public final TopicService topics;
    public final InMemoryDynamicBrokerConfigStore dynamicConfigs = new InMemoryDynamicBrokerConfigStore();
    public final BrokerConfigService brokerConfigService;
    public final ConfigService configs;
    public final ProduceService produce;

    public TestBroker() {
        this(new MemoryLogEngine(tp -> { }));
    }

    public TestBroker(LogEngine engine) {
        this(engine, null);
    }

    public TestBroker(LogEngine engine, TopicStore storeOverride) {
        this.engine = engine;
        Random ids = new Random(7);
        topics = new TopicService(storeOverride != null ? storeOverride : store, engine, settings, brokerConfigs,
                () -> new UUID(ids.nextLong(), ids.nextLong()));
        topics.start();
        brokerConfigService = BrokerConfigService.stored(brokerConfigs, dynamicConfigs, BROKER_ID);
        brokerConfigService.addListener(topics::useBrokerConfigs);
        configs = new ConfigService(topics, brokerConfigService, BROKER_ID);
        produce = new ProduceService(topics, clock, scheduler);
    }

    public Topic create(String name, int partitions, Map<String, String> configs) {
        TopicAdminUseCase.CreateResult result = topics.create(new TopicAdminUseCase.CreateCommand(name, partitions,
                TopicAdminUseCase.DEFAULT, Map.of(), configs, false));
        if (result.error() != KafkaError.NONE) {
            throw new IllegalStateException(result.error() + " " + result.message());
        }
        return result.topic();
    }

    public Topic create(String name, int partitions) {
        return create(name, partitions, Map.of());
    }
}
