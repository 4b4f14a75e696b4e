package io.kaas.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kaas.bootstrap.testing.EmbeddedKaas;
import io.kaas.bootstrap.testing.KaasBrokerExtension;
import io.kaas.bootstrap.testing.RawKafkaConnection;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.quota.ClientQuotaAlteration;
import org.apache.kafka.common.quota.ClientQuotaEntity;
import org.apache.kafka.common.record.CompressionType;
import org.apache.kafka.common.record.MemoryRecords;
import org.apache.kafka.common.record.SimpleRecord;
import org.apache.kafka.common.requests.ProduceRequest;
import org.apache.kafka.common.requests.ProduceResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Byte-rate quotas enforced on real clients, set and removed through the Admin API as an operator would: a producer
 * above a quota on its user, its client id or the default user, and a consumer above their quota see the broker's throttle in their own metrics and are held near the quota; a
 * client that ignores {@code throttle_time_ms} is held back by the broker anyway (KIP-219: the connection is not
 * read while throttled); a removed quota throttles no more. Rates are compared with loose bounds (at most twice the
 * quota), measured once throttling has begun, after the quota window's initial allowance.
 */
class QuotaEnforcementIT {
    /** Rates over 4 samples of a second (Apache's quota.window.num and .size.seconds): a shorter initial allowance. */
    @RegisterExtension
    static final KaasBrokerExtension KAAS = KaasBrokerExtension.create()
            .withEnv(Map.of("KAAS_QUOTA_WINDOW_NUM", "4", "KAAS_QUOTA_WINDOW_SIZE_SECONDS", "1"));
    private static final Logger LOG = LoggerFactory.getLogger(QuotaEnforcementIT.class);

    /** Clients without authentication are User:ANONYMOUS: the quota entity they fall under. */
    private static final ClientQuotaEntity ANONYMOUS = new ClientQuotaEntity(Map.of(ClientQuotaEntity.USER,
            "ANONYMOUS"));
    /** The client id of the producer the produce quota is tested on. */
    private static final String CLIENT_ID = "quota-it-app";
    private static final ClientQuotaEntity APP = new ClientQuotaEntity(Map.of(ClientQuotaEntity.CLIENT_ID, CLIENT_ID));
    /** The default user, which ANONYMOUS falls under without a quota of its own. */
    private static final ClientQuotaEntity DEFAULT_USER = new ClientQuotaEntity(
            Collections.singletonMap(ClientQuotaEntity.USER, null));
    private static final int RECORD_BYTES = 1_024;
    private static final double QUOTA = 200_000;
    private static final Duration MEASURED = Duration.ofSeconds(4);

    @AfterEach
    void removeQuotas() throws Exception {
        for (ClientQuotaEntity entity : quotaEntities().toList()) {
            alterQuota(entity, "producer_byte_rate", null);
        }
        alterQuota("consumer_byte_rate", null);
    }

    /** Each entity the producer falls under: its user, its client id, the default user. */
    static Stream<ClientQuotaEntity> quotaEntities() {
        return Stream.of(ANONYMOUS, APP, DEFAULT_USER);
    }

    @ParameterizedTest
    @MethodSource("quotaEntities")
    void aProducerAboveItsQuotaIsThrottledAndHeldNearItUntilTheQuotaIsRemoved(ClientQuotaEntity entity)
            throws Exception {
        EmbeddedKaas kaas = KAAS.kaas();
        String topic = createTopic("produce-quota");
        alterQuota(entity, "producer_byte_rate", QUOTA);
        AtomicLong acked = new AtomicLong();
        AtomicBoolean stop = new AtomicBoolean();
        try (KafkaProducer<byte[], byte[]> producer = kaas.producer(Map.of(ProducerConfig.CLIENT_ID_CONFIG, CLIENT_ID,
                ProducerConfig.ACKS_CONFIG, "1",
                ProducerConfig.BUFFER_MEMORY_CONFIG, 256 * 1024, ProducerConfig.MAX_BLOCK_MS_CONFIG, 60_000,
                ProducerConfig.METRICS_SAMPLE_WINDOW_MS_CONFIG, 1_000, ProducerConfig.METRICS_NUM_SAMPLES_CONFIG, 2))) {
            Thread sender = new Thread(() -> {
                byte[] value = new byte[RECORD_BYTES];
                while (!stop.get()) {
                    producer.send(new ProducerRecord<>(topic, value), (metadata, error) -> {
                        if (error == null) {
                            acked.addAndGet(RECORD_BYTES);
                        }
                    });
                }
            }, "quota-it-sender");
            sender.start();
            try {
                await().atMost(Duration.ofSeconds(30))
                        .until(() -> metric(producer.metrics(), "produce-throttle-time-max") > 0);
                assertThat(metric(producer.metrics(), "produce-throttle-time-avg")).isPositive();

                double rate = bytesPerSecond(acked);
                LOG.info("producer under a {} B/s quota on {}: {} B/s", QUOTA, entity, Math.round(rate));
                assertThat(rate).as("acknowledged bytes/s under a %s B/s quota", QUOTA).isPositive()
                        .isLessThanOrEqualTo(2 * QUOTA);

                alterQuota(entity, "producer_byte_rate", null);
                await().atMost(Duration.ofSeconds(30))
                        .until(() -> metric(producer.metrics(), "produce-throttle-time-max") == 0);
                double unthrottled = bytesPerSecond(acked);
                LOG.info("producer without the quota: {} B/s", Math.round(unthrottled));
                assertThat(unthrottled).as("without the quota").isGreaterThan(2 * QUOTA);
            } finally {
                stop.set(true);
                sender.join(TimeUnit.SECONDS.toMillis(70));
            }
        }
    }

    @Test
    void aConsumerAboveItsQuotaIsThrottledAndHeldNearIt() throws Exception {
        EmbeddedKaas kaas = KAAS.kaas();
        String topic = createTopic("fetch-quota");
        int records = 2_500; // 2.5 MB: over twelve seconds' worth at the quota
        try (KafkaProducer<byte[], byte[]> producer = kaas.producer()) {
            byte[] value = new byte[RECORD_BYTES];
            for (int i = 0; i < records; i++) {
                producer.send(new ProducerRecord<>(topic, value));
            }
            producer.flush();
        }
        alterQuota("consumer_byte_rate", QUOTA);
        AtomicLong consumed = new AtomicLong();
        try (KafkaConsumer<byte[], byte[]> consumer = kaas.consumer(Map.of(
                ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 64 * 1024, ConsumerConfig.FETCH_MAX_BYTES_CONFIG,
                64 * 1024, ConsumerConfig.METRICS_SAMPLE_WINDOW_MS_CONFIG, 1_000))) {
            TopicPartition partition = new TopicPartition(topic, 0);
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            Runnable poll = () -> {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(100))) {
                    consumed.addAndGet(record.value().length);
                }
            };
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                poll.run();
                return metric(consumer.metrics(), "fetch-throttle-time-max") > 0;
            });
            assertThat(metric(consumer.metrics(), "fetch-throttle-time-avg")).isPositive();

            long startBytes = consumed.get();
            long start = System.nanoTime();
            while (System.nanoTime() - start < MEASURED.toNanos()) {
                poll.run();
            }
            double rate = (consumed.get() - startBytes) / ((System.nanoTime() - start) / 1e9);
            LOG.info("consumer under a {} B/s quota: {} B/s", QUOTA, Math.round(rate));
            assertThat(rate).as("consumed bytes/s under a %s B/s quota", QUOTA).isPositive()
                    .isLessThanOrEqualTo(2 * QUOTA);
        }
    }

    /**
     * A raw client sends its next produce as soon as it has the answer, ignoring the throttle it was given: the broker
     * does not read the connection until the throttle is over, so it gets no further than the quota.
     */
    @Test
    void aClientIgnoringTheThrottleIsHeldBackByTheBroker() throws Exception {
        String topic = createTopic("raw-quota");
        alterQuota("producer_byte_rate", QUOTA);
        MemoryRecords batch = MemoryRecords.withRecords(CompressionType.NONE,
                IntStream.range(0, 32).mapToObj(i -> new SimpleRecord(new byte[RECORD_BYTES]))
                        .toArray(SimpleRecord[]::new));
        try (RawKafkaConnection raw = RawKafkaConnection.connect(KAAS.kaas())) {
            long throttled = 0;
            while (throttled == 0) {
                throttled = produce(raw, topic, batch).throttleTimeMs();
            }
            long sent = 0;
            long start = System.nanoTime();
            while (System.nanoTime() - start < MEASURED.toNanos()) {
                ProduceResponse response = produce(raw, topic, batch);
                assertThat(response.data().responses().find(topic).partitionResponses().get(0).errorCode()).isZero();
                sent += batch.sizeInBytes();
            }
            double rate = sent / ((System.nanoTime() - start) / 1e9);
            LOG.info("raw client ignoring the throttle under a {} B/s quota: {} B/s", QUOTA, Math.round(rate));
            assertThat(rate).as("bytes/s of a client ignoring the throttle, quota %s B/s", QUOTA).isPositive()
                    .isLessThanOrEqualTo(2 * QUOTA);
        }
    }

    private static ProduceResponse produce(RawKafkaConnection raw, String topic, MemoryRecords batch) {
        ProduceRequestData data = new ProduceRequestData().setAcks((short) 1).setTimeoutMs(10_000);
        data.topicData().add(new ProduceRequestData.TopicProduceData().setName(topic).setPartitionData(List.of(
                new ProduceRequestData.PartitionProduceData().setIndex(0).setRecords(MemoryRecords.readableRecords(batch.buffer().duplicate())))));
        return raw.send(ProduceRequest.forCurrentMagic(data).build(RawKafkaConnection.PRODUCE_VERSION));
    }

    /** What {@code counter} grows by per second over {@link #MEASURED}. */
    private static double bytesPerSecond(AtomicLong counter) throws InterruptedException {
        long startBytes = counter.get();
        long start = System.nanoTime();
        Thread.sleep(MEASURED.toMillis()); // a measurement interval, not a wait for a condition
        return (counter.get() - startBytes) / ((System.nanoTime() - start) / 1e9);
    }

    private static double metric(Map<MetricName, ? extends Metric> metrics, String name) {
        return metrics.entrySet().stream().filter(e -> e.getKey().name().equals(name))
                .mapToDouble(e -> ((Number) e.getValue().metricValue()).doubleValue())
                .filter(v -> !Double.isNaN(v)).max().orElse(0);
    }

    private static String createTopic(String prefix) throws Exception {
        String topic = EmbeddedKaas.uniqueTopicName(prefix);
        try (Admin admin = Admin.create(KAAS.kaas().adminConfig(Map.of()))) {
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
        }
        return topic;
    }

    private static void alterQuota(String key, Double value) throws Exception {
        alterQuota(ANONYMOUS, key, value);
    }

    private static void alterQuota(ClientQuotaEntity entity, String key, Double value) throws Exception {
        try (Admin admin = Admin.create(KAAS.kaas().adminConfig(Map.of()))) {
            admin.alterClientQuotas(List.of(new ClientQuotaAlteration(entity,
                    List.of(new ClientQuotaAlteration.Op(key, value))))).all().get(30, TimeUnit.SECONDS);
        }
    }
}
