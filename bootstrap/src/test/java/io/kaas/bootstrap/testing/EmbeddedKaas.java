package io.kaas.bootstrap.testing;

import io.kaas.bootstrap.BrokerConfig;
import io.kaas.bootstrap.KaasBroker;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.awaitility.Awaitility;

/**
 * One kaas broker running in this JVM on an ephemeral loopback port, over its own data directory,
 * plus the Kafka clients a test made through it. {@link #close()} closes the clients, then the
 * broker; {@link #restart()} brings the broker back over the same data directory.
 *
 * <p>Clients come with test settings: byte-array (de)serializers, short timeouts, consumers that
 * start at the earliest offset and commit nothing unless told to. Group members
 * ({@link #groupMember}) poll on their own thread with fast heartbeats; start the broker with
 * {@link #FAST_GROUPS} so that their groups settle quickly. Every map of overrides is applied last,
 * so a test can change any of them. Use {@link KaasBrokerExtension} to get one per test class or
 * per test.
 */
public final class EmbeddedKaas implements AutoCloseable {
    /** Generous for a loopback broker; a test that hits it has found a hang, not slowness. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);

    /**
     * Broker settings for tests with consumer groups: no initial rebalance delay (Apache's own test
     * harness turns it off too), and sessions of 1 s to 60 s, so groups settle in well under a second
     * and a longer session timeout is refused.
     */
    public static final Map<String, String> FAST_GROUPS = Map.of(
            "KAAS_GROUP_INITIAL_REBALANCE_DELAY_MS", "0",
            "KAAS_GROUP_MIN_SESSION_TIMEOUT_MS", "1000",
            "KAAS_GROUP_MAX_SESSION_TIMEOUT_MS", "60000");
    /** A group member's session: short enough to keep tests quick, long enough for a loaded CI machine. */
    public static final int GROUP_SESSION_TIMEOUT_MS = 6_000;

    private static final AtomicInteger CLIENT_IDS = new AtomicInteger();
    private static final AtomicInteger TOPIC_IDS = new AtomicInteger();

    static {
        NettyLeakWatch.install(); // before the first broker makes Netty create its leak detector
    }

    private final Path dataDir;
    private final boolean ownsDataDir;
    private final Map<String, String> extraEnv;
    private final Deque<AutoCloseable> clients = new ArrayDeque<>();
    private KaasBroker broker;
    /** The running broker's filesystem, which records file calls made on event loops. */
    private EventLoopFileGuard guard;
    private int lastPort;

    /**
     * @param dataDir  the broker's {@code KAAS_DATA_DIR}; kept by this object across restarts
     * @param extraEnv further {@code KAAS_*} variables; they win over the fixture's defaults
     */
    public EmbeddedKaas(Path dataDir, Map<String, String> extraEnv) {
        this(dataDir, false, extraEnv);
    }

    private EmbeddedKaas(Path dataDir, boolean ownsDataDir, Map<String, String> extraEnv) {
        this.dataDir = dataDir;
        this.ownsDataDir = ownsDataDir;
        this.extraEnv = Map.copyOf(extraEnv);
    }

    /** A broker over a fresh temporary data directory, which {@link #close()} deletes. */
    public static EmbeddedKaas inTempDir(Map<String, String> extraEnv) {
        try {
            return new EmbeddedKaas(Files.createTempDirectory("kaas-it-"), true, extraEnv);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a data directory", e);
        }
    }

    /** The environment the broker is started with: loopback, ephemeral port, this data directory, then the extras. */
    public Map<String, String> env() {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("KAAS_BIND_HOST", "127.0.0.1");
        env.put("KAAS_PORT", "0");
        env.put("KAAS_HEALTH_PORT", "0");
        env.put("KAAS_DATA_DIR", dataDir.toString());
        env.put("KAAS_IO_THREADS", "2");
        env.putAll(extraEnv);
        return env;
    }

    /** Starts the broker; a no-op when it is running. */
    public synchronized EmbeddedKaas start() {
        if (broker == null) {
            broker = startBroker(env());
            lastPort = broker.port();
        }
        return this;
    }

    /**
     * Stops the broker and starts a new one over the same data directory, on the same port when it
     * is still free (so clients made before keep their bootstrap address), else on a new one.
     */
    public synchronized EmbeddedKaas restart() {
        return restart(Map.of());
    }

    /** {@link #restart()}, with {@code overrides} on top of the broker's variables for this run only. */
    public synchronized EmbeddedKaas restart(Map<String, String> overrides) {
        stopBroker();
        Map<String, String> env = env();
        env.putAll(overrides);
        if (lastPort != 0 && !extraEnv.containsKey("KAAS_PORT")) {
            env.put("KAAS_PORT", Integer.toString(lastPort));
        }
        try {
            broker = startBroker(env);
        } catch (UncheckedIOException e) {
            if (!(e.getCause() instanceof BindException)) {
                throw e;
            }
            Map<String, String> anyPort = env();
            anyPort.putAll(overrides);
            broker = startBroker(anyPort);
        }
        lastPort = broker.port();
        return this;
    }

    /** Stops the broker, leaving the data directory and the clients alone. */
    /** Stops the broker; fails if it touched a file on an event loop while it ran (see {@link EventLoopFileGuard}). */
    public synchronized void stopBroker() {
        if (broker != null) {
            broker.close();
            broker = null;
            EventLoopFileGuard stopped = guard;
            guard = null;
            stopped.assertNoViolations();
        }
    }

    public synchronized boolean isRunning() {
        return broker != null;
    }

    /** The running broker. */
    public synchronized KaasBroker broker() {
        if (broker == null) {
            throw new IllegalStateException("the broker is not running");
        }
        return broker;
    }

    public int port() {
        return broker().port();
    }

    public String host() {
        return broker().config().advertisedHost();
    }

    /** {@code host:port} for {@code bootstrap.servers}. */
    public String bootstrapServers() {
        return broker().bootstrapServers();
    }

    public Path dataDir() {
        return dataDir;
    }

    /** A topic name no other test in this JVM uses. */
    public static String uniqueTopicName(String prefix) {
        return prefix + "-" + TOPIC_IDS.incrementAndGet() + "-" + Long.toHexString(System.nanoTime() & 0xffffff);
    }

    // ---------------------------------------------------------------- clients

    /** Producer settings: byte arrays, short timeouts, then {@code overrides}. */
    public Map<String, Object> producerConfig(Map<String, ?> overrides) {
        return producerConfig(bootstrapServers(), overrides);
    }

    /** {@link #producerConfig(Map)} for a broker this fixture does not run (one in another process). */
    public static Map<String, Object> producerConfig(String bootstrapServers, Map<String, ?> overrides) {
        Map<String, Object> config = common(bootstrapServers, "producer");
        config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        config.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
        config.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 20_000);
        config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 15_000);
        config.putAll(overrides);
        return config;
    }

    /** Consumer settings: byte arrays, no group, earliest offsets, no commits, then {@code overrides}. */
    public Map<String, Object> consumerConfig(Map<String, ?> overrides) {
        return consumerConfig(bootstrapServers(), overrides);
    }

    /** {@link #consumerConfig(Map)} for a broker this fixture does not run (one in another process). */
    public static Map<String, Object> consumerConfig(String bootstrapServers, Map<String, ?> overrides) {
        Map<String, Object> config = common(bootstrapServers, "consumer");
        config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG, 15_000);
        config.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 15_000);
        config.putAll(overrides);
        return config;
    }

    /**
     * Settings for a member of {@code groupId}: those of {@link #consumerConfig(Map)} (commits are
     * explicit), fast heartbeats and a {@link #GROUP_SESSION_TIMEOUT_MS} session, then
     * {@code overrides}. No client id: the client then names itself {@code consumer-<group>-<n>}, as
     * an application's consumer does, which is what admin tools show.
     */
    public Map<String, Object> groupConsumerConfig(String groupId, Map<String, ?> overrides) {
        Map<String, Object> config = consumerConfig(Map.of());
        config.remove(CommonClientConfigs.CLIENT_ID_CONFIG);
        config.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
        config.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, GROUP_SESSION_TIMEOUT_MS);
        config.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, 200);
        config.put(ConsumerConfig.MAX_POLL_INTERVAL_MS_CONFIG, 20_000);
        config.putAll(overrides);
        return config;
    }

    /** Admin settings: short timeouts, then {@code overrides}. */
    public Map<String, Object> adminConfig(Map<String, ?> overrides) {
        Map<String, Object> config = common(bootstrapServers(), "admin");
        config.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
        config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 15_000);
        config.putAll(overrides);
        return config;
    }

    public KafkaProducer<byte[], byte[]> producer() {
        return producer(Map.of());
    }

    /** A producer closed with this fixture (or at the end of the test, under the extension). */
    public KafkaProducer<byte[], byte[]> producer(Map<String, ?> overrides) {
        return track(new KafkaProducer<>(producerConfig(overrides)));
    }

    public KafkaConsumer<byte[], byte[]> consumer() {
        return consumer(Map.of());
    }

    /** A consumer without a group: use {@code assign()}; closed like {@link #producer(Map)}. */
    public KafkaConsumer<byte[], byte[]> consumer(Map<String, ?> overrides) {
        return track(new KafkaConsumer<>(consumerConfig(overrides)));
    }

    /**
     * A member of {@code groupId} subscribed to {@code topics}, polling on its own thread; closing
     * it leaves the group. Closed like {@link #producer(Map)} if the test does not close it first.
     */
    public PollingConsumer groupMember(String groupId, String... topics) {
        return groupMember(groupId, Map.of(), topics);
    }

    /** As {@link #groupMember(String, String...)}, with {@code overrides} on {@link #groupConsumerConfig}. */
    public PollingConsumer groupMember(String groupId, Map<String, ?> overrides, String... topics) {
        return track(new PollingConsumer(groupConsumerConfig(groupId, overrides), List.of(topics)));
    }

    public Admin admin() {
        return admin(Map.of());
    }

    /** An admin client closed like {@link #producer(Map)}. */
    public Admin admin(Map<String, ?> overrides) {
        return track(Admin.create(adminConfig(overrides)));
    }

    /** Closes {@code client} with the others; for clients built here with other types or settings. */
    public synchronized <C extends AutoCloseable> C track(C client) {
        clients.push(client);
        return client;
    }

    /** Closes every client made so far, newest first. */
    public void closeClients() {
        List<AutoCloseable> toClose;
        synchronized (this) {
            toClose = new ArrayList<>(clients);
            clients.clear();
        }
        RuntimeException failure = null;
        for (AutoCloseable client : toClose) {
            try {
                if (client instanceof KafkaProducer<?, ?> p) {
                    p.close(Duration.ofSeconds(5));
                } else if (client instanceof KafkaConsumer<?, ?> c) {
                    // No wait: closing sends a fetch-session close that queues behind the consumer's parked fetch
                    // and would hold teardown for up to fetch.max.wait.ms. A test that needs a graceful close
                    // (leaving a group, committing) closes its consumer itself.
                    c.close(Duration.ZERO);
                } else if (client instanceof Admin a) {
                    a.close(Duration.ofSeconds(5));
                } else {
                    client.close();
                }
            } catch (Exception e) {
                if (failure == null) {
                    failure = new IllegalStateException("closing a client failed", e);
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    // ---------------------------------------------------------------- conveniences

    /** Creates topics with the given partition counts through a short-lived admin client and waits for it. */
    public void createTopics(Map<String, Integer> partitionsByName) {
        try (Admin admin = Admin.create(adminConfig(Map.of()))) {
            List<NewTopic> topics = partitionsByName.entrySet().stream()
                    .map(e -> new NewTopic(e.getKey(), e.getValue(), (short) 1)).toList();
            admin.createTopics(topics).all().get(DEFAULT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("creating " + partitionsByName + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public void createTopic(String name, int partitions) {
        createTopics(Map.of(name, partitions));
    }

    /**
     * Writes {@code count} records through a short-lived producer and waits for them: keys
     * {@code key-<i>} (so the default partitioner spreads them over the partitions), values
     * {@code valuePrefix + i}, both as UTF-8.
     */
    public void produce(String topic, int count, String valuePrefix) {
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(producerConfig(Map.of()))) {
            for (int i = 0; i < count; i++) {
                producer.send(new ProducerRecord<>(topic, utf8("key-" + i), utf8(valuePrefix + i)));
            }
            producer.flush();
        }
    }

    /** The group's committed offsets, as the AdminClient lists them. */
    public static Map<TopicPartition, OffsetAndMetadata> committedOffsets(Admin admin, String group) throws Exception {
        return admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get();
    }

    /**
     * Polls until at least {@code count} records arrived or {@code timeout} passed (then fails,
     * saying how many came). Polls on the calling thread: consumers are single-threaded.
     */
    public static <K, V> List<ConsumerRecord<K, V>> consume(KafkaConsumer<K, V> consumer, int count, Duration timeout) {
        List<ConsumerRecord<K, V>> received = new ArrayList<>(count);
        Awaitility.await("consuming " + count + " records")
                .atMost(timeout)
                .pollInSameThread()
                .pollDelay(Duration.ZERO)
                .pollInterval(Duration.ofMillis(1))
                .until(() -> {
                    consumer.poll(Duration.ofMillis(100)).forEach(received::add);
                    return received.size() >= count;
                });
        return received;
    }

    /**
     * Every record of {@code partitions}, read from the log start up to the end offsets they have
     * now: assigns them to {@code consumer} (which must be in no group) and polls on the calling
     * thread until it got there, failing after {@code timeout}.
     */
    public static <K, V> Map<TopicPartition, List<ConsumerRecord<K, V>>> readAll(KafkaConsumer<K, V> consumer,
                                                                                  List<TopicPartition> partitions,
                                                                                  Duration timeout) {
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
        Map<TopicPartition, Long> end = consumer.endOffsets(partitions, timeout);
        Map<TopicPartition, List<ConsumerRecord<K, V>>> read = new HashMap<>();
        partitions.forEach(tp -> read.put(tp, new ArrayList<>()));
        Awaitility.await("reading " + partitions + " to " + end)
                .atMost(timeout)
                .pollInSameThread()
                .pollDelay(Duration.ZERO)
                .pollInterval(Duration.ofMillis(1))
                .until(() -> {
                    consumer.poll(Duration.ofMillis(200)).forEach(r ->
                            read.get(new TopicPartition(r.topic(), r.partition())).add(r));
                    return partitions.stream().allMatch(tp -> consumer.position(tp) >= end.get(tp));
                });
        return read;
    }

    // ---------------------------------------------------------------- lifecycle

    /** Closes the clients, stops the broker and, for {@link #inTempDir}, deletes the data directory. */
    @Override
    public void close() {
        try {
            closeClients();
        } finally {
            stopBroker();
            if (ownsDataDir) {
                deleteTree(dataDir);
            }
        }
    }

    private KaasBroker startBroker(Map<String, String> env) {
        BrokerConfig config = BrokerConfig.fromEnvironment(env);
        EventLoopFileGuard files = new EventLoopFileGuard(KaasBroker.volumeFor(config));
        try {
            KaasBroker started = KaasBroker.start(config, files);
            guard = files;
            return started;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting the broker", e);
        } catch (Exception e) {
            // Netty rethrows bind failures undeclared; keep the cause visible for restart()'s fallback.
            if (e instanceof BindException bind) {
                throw new UncheckedIOException(bind);
            }
            throw e;
        }
    }

    private static Map<String, Object> common(String bootstrapServers, String role) {
        Map<String, Object> config = new HashMap<>();
        config.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        config.put(CommonClientConfigs.CLIENT_ID_CONFIG, "it-" + role + "-" + CLIENT_IDS.incrementAndGet());
        return config;
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static void deleteTree(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + root, e);
        }
    }
}
