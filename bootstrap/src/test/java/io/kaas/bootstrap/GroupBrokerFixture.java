package io.kaas.bootstrap;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * An in-process broker for the consumer-group integration tests, configured so groups settle fast:
 * no initial rebalance delay and short sessions. Clients come preconfigured to match.
 */
final class GroupBrokerFixture implements AutoCloseable {
    /** Short enough to keep the tests quick, long enough for a loaded CI machine. */
    static final int SESSION_TIMEOUT_MS = 6_000;
    static final int HEARTBEAT_INTERVAL_MS = 200;

    private final Path dataDir;
    private final Map<String, String> extraEnv;
    private KaasBroker broker;
    private Admin admin;

    GroupBrokerFixture(Path dataDir) {
        this(dataDir, Map.of());
    }

    GroupBrokerFixture(Path dataDir, Map<String, String> extraEnv) {
        this.dataDir = dataDir;
        this.extraEnv = extraEnv;
        start();
    }

    void start() {
        Map<String, String> env = new HashMap<>(Map.of(
                "KAAS_PORT", "0",
                "KAAS_DATA_DIR", dataDir.toString(),
                "KAAS_GROUP_INITIAL_REBALANCE_DELAY_MS", "0",
                "KAAS_GROUP_MIN_SESSION_TIMEOUT_MS", "1000",
                "KAAS_GROUP_MAX_SESSION_TIMEOUT_MS", "60000"));
        env.putAll(extraEnv);
        try {
            broker = KaasBroker.start(BrokerConfig.fromEnvironment(env));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers()));
    }

    /** Stops the broker cleanly and starts a new one on the same data directory (on a new port). */
    void restart() {
        close();
        start();
    }

    String bootstrapServers() {
        return broker.bootstrapServers();
    }

    Admin admin() {
        return admin;
    }

    void createTopic(String name, int partitions) {
        try {
            admin.createTopics(List.of(new NewTopic(name, partitions, (short) 1))).all().get();
        } catch (InterruptedException | ExecutionException e) {
            throw new IllegalStateException("cannot create " + name, e);
        }
    }

    /** Writes {@code count} records spread over the topic's partitions by key, and waits for them. */
    void produce(String topic, int count) {
        produce(topic, count, "value-");
    }

    /** As {@link #produce(String, int)}, the values being {@code valuePrefix + i}. */
    void produce(String topic, int count, String valuePrefix) {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(props)) {
            for (int i = 0; i < count; i++) {
                producer.send(new ProducerRecord<>(topic, "key-" + i, valuePrefix + i));
            }
            producer.flush();
        }
    }

    /** Consumer settings for a group member: fast heartbeats, short sessions, earliest reset, no auto-commit. */
    Properties consumerProps(String groupId) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        props.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, String.valueOf(SESSION_TIMEOUT_MS));
        props.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, String.valueOf(HEARTBEAT_INTERVAL_MS));
        props.put(ConsumerConfig.MAX_POLL_INTERVAL_MS_CONFIG, "20000");
        props.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "15000");
        return props;
    }

    PollingConsumer consumer(String groupId, String... topics) {
        return new PollingConsumer(consumerProps(groupId), List.of(topics));
    }

    static Duration timeout() {
        return Duration.ofSeconds(30);
    }

    @Override
    public void close() {
        if (admin != null) {
            admin.close(Duration.ofSeconds(5));
        }
        if (broker != null) {
            broker.close();
        }
    }
}
