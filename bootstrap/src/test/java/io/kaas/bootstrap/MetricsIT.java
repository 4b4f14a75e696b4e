package io.kaas.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import io.kaas.bootstrap.telemetry.PrometheusText;
import io.kaas.bootstrap.testing.EmbeddedKaas;
import io.kaas.bootstrap.testing.PollingConsumer;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/**
 * What an operator scrapes from {@code /metrics} on the health port, and what an OTel collector
 * receives, after real clients produced, fetched and committed.
 */
class MetricsIT {
    /** Clients may name groups anything: this one would break a text format that did not escape it. */
    private static final String HOSTILE_GROUP = "lag \"meter\"\n{x=\"1\"} \\";

    @Test
    void scrapeShowsTrafficFsyncsRequestsAndLag() throws Exception {
        try (EmbeddedKaas kaas = EmbeddedKaas.inTempDir(EmbeddedKaas.FAST_GROUPS).start()) {
            String topic = EmbeddedKaas.uniqueTopicName("metered");
            kaas.createTopic(topic, 1);
            TopicPartition tp = new TopicPartition(topic, 0);
            double fsyncsBefore = scrape(kaas).value("kaas_log_fsync_duration_seconds_count", Map.of("log", "segments")).orElseThrow();

            int batched = 40;
            int oneByOne = 5;
            try (KafkaProducer<byte[], byte[]> producer = kaas.producer(Map.of(ProducerConfig.ACKS_CONFIG, "all",
                    ProducerConfig.LINGER_MS_CONFIG, 20))) {
                List<Future<RecordMetadata>> sent = new ArrayList<>();
                for (int i = 0; i < batched; i++) {
                    sent.add(producer.send(new ProducerRecord<>(topic, ("value-" + i).getBytes(StandardCharsets.UTF_8))));
                }
                for (Future<RecordMetadata> f : sent) {
                    f.get();
                }
                for (int i = 0; i < oneByOne; i++) { // each acks=all append waits for a group commit of its own
                    producer.send(new ProducerRecord<>(topic, ("single-" + i).getBytes(StandardCharsets.UTF_8))).get();
                }
            }
            int produced = batched + oneByOne;
            int committed = 12;
            try (KafkaConsumer<byte[], byte[]> consumer = kaas.consumer(Map.of(ConsumerConfig.GROUP_ID_CONFIG,
                    HOSTILE_GROUP))) {
                consumer.assign(List.of(tp));
                List<ConsumerRecord<byte[], byte[]>> read = EmbeddedKaas.consume(consumer, committed,
                        EmbeddedKaas.DEFAULT_TIMEOUT);
                assertThat(read).hasSizeGreaterThanOrEqualTo(committed);
                consumer.commitSync(Map.of(tp, new OffsetAndMetadata(committed)));
            }
            long partitionBytes;
            try (Admin admin = kaas.admin()) {
                partitionBytes = admin.describeLogDirs(List.of(kaas.broker().config().brokerId())).allDescriptions().get()
                        .values().stream().flatMap(dirs -> dirs.values().stream())
                        .mapToLong(dir -> dir.replicaInfos().get(tp).size()).sum();
            }

            PrometheusText metrics = scrape(kaas);
            // bytes in: the batches as the producer sent them, which is what the log holds, byte for byte
            assertThat(partitionBytes).isPositive();
            assertThat(metrics.value("kaas_topic_incoming_bytes_total", Map.of("topic", topic)))
                    .hasValue((double) partitionBytes);
            assertThat(metrics.value("kaas_topic_incoming_records_total", Map.of("topic", topic)))
                    .hasValue((double) produced);
            assertThat(metrics.value("kaas_topic_outgoing_bytes_total", Map.of("topic", topic)).orElseThrow())
                    .isGreaterThan(0);
            assertThat(metrics.value("kaas_log_fsync_duration_seconds_count", Map.of("log", "segments")).orElseThrow() - fsyncsBefore)
                    .isGreaterThanOrEqualTo(oneByOne + 1);
            assertThat(metrics.value("kaas_log_group_commit_appends_count", Map.of()).orElseThrow())
                    .isGreaterThanOrEqualTo(oneByOne + 1);
            assertThat(metrics.value("kaas_requests_total", Map.of("api", "Produce")).orElseThrow())
                    .isGreaterThanOrEqualTo(oneByOne + 1);
            assertThat(metrics.value("kaas_requests_total", Map.of("api", "Fetch")).orElseThrow()).isPositive();
            assertThat(metrics.value("kaas_request_duration_seconds_count", Map.of("api", "OffsetCommit")))
                    .hasValue(1);
            assertThat(metrics.value("kaas_consumer_group_lag", Map.of("group", HOSTILE_GROUP, "topic", topic,
                    "partition", "0"))).hasValue((double) produced - committed);
            assertThat(metrics.value("kaas_partitions_led", Map.of()).orElseThrow()).isGreaterThanOrEqualTo(1);
            assertThat(metrics.value("kaas_partitions_stalled", Map.of())).hasValue(0);
            assertThat(metrics.value("kaas_connections_accepted_total", Map.of("listener", "plain")).orElseThrow())
                    .isGreaterThanOrEqualTo(3);
        }
    }

    @Test
    void storageGroupsTransactionsAndProduceStepsShowTheBrokersState() throws Exception {
        try (EmbeddedKaas kaas = EmbeddedKaas.inTempDir(EmbeddedKaas.FAST_GROUPS).start(); Admin admin = kaas.admin()) {
            String topic = EmbeddedKaas.uniqueTopicName("segmented");
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1).configs(Map.of("segment.bytes", "1024"))))
                    .all().get();
            TopicPartition tp = new TopicPartition(topic, 0);
            int acked = 12;
            try (KafkaProducer<byte[], byte[]> producer = kaas.producer(Map.of(ProducerConfig.ACKS_CONFIG, "all"))) {
                for (int i = 0; i < acked; i++) { // one ~300-byte batch each: a 1 KiB segment holds three
                    producer.send(new ProducerRecord<>(topic, new byte[250])).get();
                }
            }
            long logBytes = admin.describeLogDirs(List.of(kaas.broker().config().brokerId())).allDescriptions().get()
                    .values().stream().flatMap(dirs -> dirs.values().stream())
                    .mapToLong(dir -> dir.replicaInfos().get(tp).size()).sum();
            long segmentFiles;
            try (Stream<Path> files = Files.list(kaas.dataDir().resolve(topic).resolve("0"))) {
                segmentFiles = files.filter(f -> f.getFileName().toString().endsWith(".log")).count();
            }
            PrometheusText metrics = scrape(kaas);
            Map<String, String> partition = Map.of("topic", topic, "partition", "0");
            assertThat(metrics.value("kaas_log_size_bytes", partition)).hasValue((double) logBytes);
            assertThat(segmentFiles).isGreaterThan(3);
            assertThat(metrics.value("kaas_log_segments", partition)).hasValue((double) segmentFiles);
            for (String step : List.of("queue", "append", "fsync_wait")) {
                assertThat(metrics.value("kaas_produce_step_duration_seconds_count", Map.of("step", step)).orElseThrow())
                        .isGreaterThanOrEqualTo(acked);
            }
            assertThat(metrics.value("kaas_controller_present", Map.of())).hasValue(1); // standalone: its own

            String group = "rebalanced";
            Map<String, String> ofGroup = Map.of("group", group);
            try (PollingConsumer first = kaas.groupMember(group, topic)) {
                await().atMost(EmbeddedKaas.DEFAULT_TIMEOUT).until(() -> first.generation() > 0);
                double alone = scrape(kaas).value("kaas_consumer_group_rebalances_total", ofGroup).orElseThrow();
                assertThat(alone).isGreaterThanOrEqualTo(1);
                try (PollingConsumer second = kaas.groupMember(group, topic)) {
                    // both members in one new generation: the group rebalanced for the second
                    await().atMost(EmbeddedKaas.DEFAULT_TIMEOUT).until(() -> second.generation() > 0
                            && second.generation() == first.generation());
                    assertThat(scrape(kaas).value("kaas_consumer_group_rebalances_total", ofGroup).orElseThrow())
                            .isGreaterThanOrEqualTo(alone + 1);
                }
            }

            try (KafkaProducer<byte[], byte[]> transactional = kaas.producer(Map.of(
                    ProducerConfig.TRANSACTIONAL_ID_CONFIG, "metered-txn"))) {
                transactional.initTransactions();
                assertThat(scrape(kaas).value("kaas_transactions_active", Map.of())).hasValue(0);
                transactional.beginTransaction();
                transactional.send(new ProducerRecord<>(topic, new byte[10])).get();
                PrometheusText open = scrape(kaas);
                assertThat(open.value("kaas_transactions_active", Map.of())).hasValue(1);
                assertThat(open.value("kaas_transactions_oldest_age_seconds", Map.of()).orElseThrow()).isNotNegative();
                transactional.commitTransaction();
                await().atMost(EmbeddedKaas.DEFAULT_TIMEOUT).untilAsserted(() ->
                        assertThat(scrape(kaas).value("kaas_transactions_active", Map.of())).hasValue(0));
            }
        }
    }

    @Test
    void tripwiresCountRecordDecodesOnlyWhereRecordsAreRead() throws Exception {
        try (EmbeddedKaas kaas = EmbeddedKaas.inTempDir(EmbeddedKaas.FAST_GROUPS).start(); Admin admin = kaas.admin()) {
            String plain = EmbeddedKaas.uniqueTopicName("opaque");
            String compacted = EmbeddedKaas.uniqueTopicName("compacted");
            admin.createTopics(List.of(new NewTopic(plain, 1, (short) 1),
                    new NewTopic(compacted, 1, (short) 1).configs(Map.of("cleanup.policy", "compact")))).all().get();
            kaas.produce(plain, 20, "opaque");
            try (KafkaConsumer<byte[], byte[]> consumer = kaas.consumer()) {
                consumer.assign(List.of(new TopicPartition(plain, 0)));
                assertThat(EmbeddedKaas.consume(consumer, 20, EmbeddedKaas.DEFAULT_TIMEOUT)).hasSize(20);
            }
            PrometheusText afterProduceAndFetch = scrape(kaas);
            for (String site : List.of("list_offsets_by_timestamp", "compacted_produce_keys", "compaction_keys",
                    "compaction_rewrite")) {
                // every site has its series from the start; produce and fetch move none of them
                assertThat(afterProduceAndFetch.value("kaas_codec_record_decode_total", Map.of("site", site))).hasValue(0);
                assertThat(afterProduceAndFetch.value("kaas_codec_batch_reencode_total", Map.of("site", site)))
                        .hasValue(0);
            }

            try (KafkaProducer<byte[], byte[]> producer = kaas.producer()) {
                producer.send(new ProducerRecord<>(compacted, "key".getBytes(StandardCharsets.UTF_8),
                        "value".getBytes(StandardCharsets.UTF_8))).get();
            }
            TopicPartition tp = new TopicPartition(plain, 0);
            assertThat(admin.listOffsets(Map.of(tp, org.apache.kafka.clients.admin.OffsetSpec.forTimestamp(0L)))
                    .partitionResult(tp).get().offset()).isZero();
            PrometheusText afterDecodes = scrape(kaas);
            assertThat(afterDecodes.value("kaas_codec_record_decode_total", Map.of("site", "compacted_produce_keys")))
                    .hasValue(1);
            assertThat(afterDecodes.value("kaas_codec_record_decode_total", Map.of("site", "list_offsets_by_timestamp"))
                    .orElseThrow()).isGreaterThanOrEqualTo(1);
        }
    }

    @Test
    void otlpPushReachesACollector() throws Exception {
        BlockingQueue<Export> exports = new LinkedBlockingQueue<>();
        HttpServer collector = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        collector.createContext("/v1/metrics", exchange -> {
            try (exchange; InputStream body = exchange.getRequestBody()) {
                exports.add(new Export(exchange.getRequestMethod(),
                        exchange.getRequestHeaders().getFirst("Content-Type"), body.readAllBytes()));
                exchange.sendResponseHeaders(200, -1);
            }
        });
        collector.start();
        Map<String, String> env = new HashMap<>(EmbeddedKaas.FAST_GROUPS);
        env.put("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:" + collector.getAddress().getPort());
        env.put("KAAS_METRIC_EXPORT_INTERVAL", "200ms");
        env.put("OTEL_RESOURCE_ATTRIBUTES", "deployment.environment=metrics-it");
        try (EmbeddedKaas kaas = EmbeddedKaas.inTempDir(env).start()) {
            String topic = EmbeddedKaas.uniqueTopicName("pushed");
            kaas.createTopic(topic, 1);
            kaas.produce(topic, 3, "otlp");

            await().atMost(EmbeddedKaas.DEFAULT_TIMEOUT).until(() -> {
                Export export = exports.take();
                assertThat(export.method()).isEqualTo("POST");
                assertThat(export.contentType()).isEqualTo("application/x-protobuf");
                // Protobuf keeps strings as UTF-8 bytes: the series and its labels are readable in the payload.
                String payload = new String(export.body(), StandardCharsets.ISO_8859_1);
                assertThat(payload).contains("service.name", "kaas", "kaas.broker.id", "metrics-it");
                return payload.contains("kaas.topic.incoming.bytes") && payload.contains(topic);
            });
        } finally {
            collector.stop(0);
        }
    }

    private record Export(String method, String contentType, byte[] body) {
    }

    private static PrometheusText scrape(EmbeddedKaas kaas) throws Exception {
        return PrometheusText.scrape(kaas.broker().healthPort());
    }
}
