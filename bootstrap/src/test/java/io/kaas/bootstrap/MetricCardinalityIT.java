package io.kaas.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.bootstrap.telemetry.PrometheusText;
import io.kaas.bootstrap.testing.EmbeddedKaas;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/**
 * The number of series {@code /metrics} shows is bounded by what an operator created, as
 * docs/observability.md promises: adding topics adds three traffic series per topic that had traffic and two
 * storage series per partition, and nothing else; no series is per client; and client-chosen names (a client
 * id, a group id) with quotes, newlines, backslashes and non-ASCII characters leave the text well-formed.
 */
class MetricCardinalityIT {
    private static final String HOSTILE_CLIENT_ID = "client \"quoted\"\nsecond line \\ back\\\\slash ünïcødé ☃ {le=\"1\"}";
    private static final String HOSTILE_GROUP = "group \"g\"\n\\ ☃ ünïcødé";
    private static final int TOPICS_PER_STEP = 60;
    private static final int PARTITIONS = 4;
    /** The metrics that grow with topics, and by how many series per topic (with traffic) or per partition (led). */
    private static final Map<String, Integer> SERIES_PER_TOPIC = Map.of(
            "kaas_topic_incoming_bytes_total", 1, "kaas_topic_incoming_records_total", 1,
            "kaas_topic_outgoing_bytes_total", 1);
    private static final Map<String, Integer> SERIES_PER_PARTITION = Map.of(
            "kaas_log_size_bytes", 1, "kaas_log_segments", 1);
    /** The only metrics with a partition label: the storage gauges and consumer lag (committed partitions only). */
    private static final Set<String> PARTITION_LABELLED = Set.of("kaas_log_size_bytes", "kaas_log_segments",
            "kaas_consumer_group_lag");

    @Test
    void topicsAddOnlyTheirDocumentedSeriesAndHostileNamesKeepTheTextWellFormed() throws Exception {
        try (EmbeddedKaas kaas = EmbeddedKaas.inTempDir(EmbeddedKaas.FAST_GROUPS).start();
             // creating hundreds of partitions (files fsynced each) takes a while on a loaded machine
             Admin admin = kaas.admin(Map.of(AdminClientConfig.CLIENT_ID_CONFIG, HOSTILE_CLIENT_ID,
                     AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 120_000,
                     AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 180_000));
             KafkaProducer<byte[], byte[]> producer = kaas.producer(Map.of(ProducerConfig.CLIENT_ID_CONFIG,
                     HOSTILE_CLIENT_ID))) {
            List<String> first = createAndProduce(admin, producer, "first");
            // a group with a hostile id, whose consumer has a hostile client id, commits every partition of a topic
            try (KafkaConsumer<byte[], byte[]> consumer = kaas.consumer(Map.of(ConsumerConfig.CLIENT_ID_CONFIG,
                    HOSTILE_CLIENT_ID, ConsumerConfig.GROUP_ID_CONFIG, HOSTILE_GROUP))) {
                List<TopicPartition> partitions = IntStream.range(0, PARTITIONS)
                        .mapToObj(p -> new TopicPartition(first.get(0), p)).toList();
                consumer.assign(partitions);
                assertThat(EmbeddedKaas.consume(consumer, 1, EmbeddedKaas.DEFAULT_TIMEOUT)).hasSize(1);
                consumer.commitSync();
            }
            PrometheusText before = PrometheusText.scrape(kaas.broker().healthPort());
            createAndProduce(admin, producer, "second");
            String text = new String(PrometheusText.scrapeText(kaas.broker().healthPort()), StandardCharsets.UTF_8);
            PrometheusText after = PrometheusText.parse(text); // strict: a label value that broke a line fails here

            Map<String, Long> growth = new TreeMap<>(seriesByName(after));
            seriesByName(before).forEach((name, count) -> growth.merge(name, -count, Long::sum));
            Map<String, Long> expected = new TreeMap<>();
            growth.keySet().forEach(name -> expected.put(name, 0L));
            SERIES_PER_TOPIC.forEach((name, n) -> expected.put(name, (long) n * TOPICS_PER_STEP));
            SERIES_PER_PARTITION.forEach((name, n) -> expected.put(name, (long) n * TOPICS_PER_STEP * PARTITIONS));
            assertThat(growth).as("series added by %d more topics of %d partitions", TOPICS_PER_STEP, PARTITIONS)
                    .isEqualTo(expected);

            assertThat(after.samples()).filteredOn(s -> s.labels().containsKey("partition"))
                    .extracting(PrometheusText.Sample::name).allMatch(PARTITION_LABELLED::contains);
            assertThat(after.samples()).filteredOn(s -> s.name().equals("kaas_consumer_group_lag")
                    && s.labels().get("group").equals(HOSTILE_GROUP)).hasSize(PARTITIONS); // the label round-trips
            assertThat(after.samples()).as("no series is per client")
                    .noneMatch(s -> s.labels().containsValue(HOSTILE_CLIENT_ID));
            assertThat(text).doesNotContain("quoted");
        }
    }

    /** Creates a step's topics, and produces one record to each: each topic then has traffic series. */
    private static List<String> createAndProduce(Admin admin, KafkaProducer<byte[], byte[]> producer, String step)
            throws Exception {
        List<String> topics = new ArrayList<>();
        for (int i = 0; i < TOPICS_PER_STEP; i++) {
            topics.add(EmbeddedKaas.uniqueTopicName("cardinality-" + step));
        }
        admin.createTopics(topics.stream().map(t -> new NewTopic(t, PARTITIONS, (short) 1)).toList()).all().get();
        for (String topic : topics) {
            producer.send(new ProducerRecord<>(topic, 0, null, topic.getBytes(StandardCharsets.UTF_8)));
        }
        producer.flush();
        return topics;
    }

    private static Map<String, Long> seriesByName(PrometheusText metrics) {
        return metrics.samples().stream().collect(Collectors.groupingBy(PrometheusText.Sample::name, Collectors.counting()));
    }
}
