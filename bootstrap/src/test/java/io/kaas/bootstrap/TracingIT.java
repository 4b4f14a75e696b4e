package io.kaas.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import io.kaas.bootstrap.telemetry.OtlpSpans;
import io.kaas.bootstrap.telemetry.OtlpSpans.ExportedSpan;
import io.kaas.bootstrap.testing.EmbeddedKaas;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Request traces as an OpenTelemetry collector receives them over OTLP/HTTP. */
class TracingIT {
    private final List<ExportedSpan> received = new CopyOnWriteArrayList<>();
    private HttpServer collector;

    @BeforeEach
    void startCollector() throws IOException {
        collector = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        collector.createContext("/v1/traces", exchange -> {
            try (exchange; InputStream body = exchange.getRequestBody()) {
                received.addAll(OtlpSpans.read(body.readAllBytes()));
                exchange.sendResponseHeaders(200, -1);
            }
        });
        collector.start();
    }

    @AfterEach
    void stopCollector() {
        collector.stop(0);
    }

    /** A broker tracing every request to the collector. */
    private EmbeddedKaas tracedKaas() {
        Map<String, String> env = new HashMap<>(EmbeddedKaas.FAST_GROUPS);
        env.put("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:" + collector.getAddress().getPort());
        env.put("OTEL_TRACES_SAMPLER", "parentbased_traceidratio");
        env.put("OTEL_TRACES_SAMPLER_ARG", "1.0");
        env.put("OTEL_BSP_SCHEDULE_DELAY", "100ms");
        env.put("KAAS_METRIC_EXPORT_INTERVAL", "1h");
        return EmbeddedKaas.inTempDir(env);
    }

    @Test
    void anAcksAllProduceIsARequestSpanWithAppendAndFsyncChildren() {
        try (EmbeddedKaas kaas = tracedKaas().start()) {
            String topic = EmbeddedKaas.uniqueTopicName("traced");
            kaas.createTopic(topic, 1);
            try (KafkaProducer<byte[], byte[]> producer = kaas.producer(Map.of(ProducerConfig.ACKS_CONFIG, "all",
                    ProducerConfig.CLIENT_ID_CONFIG, "traced-producer"))) {
                producer.send(new ProducerRecord<>(topic, "traced".getBytes(StandardCharsets.UTF_8))).get();
            } catch (Exception e) {
                throw new AssertionError(e);
            }

            // until the batch processor has exported them all: a span not yet received is looked for again
            await().atMost(EmbeddedKaas.DEFAULT_TIMEOUT).ignoreException(NoSuchElementException.class)
                    .untilAsserted(() -> {
                ExportedSpan produce = received.stream().filter(s -> s.name().equals("Produce")
                        && s.attributes().contains("kafka.client_id=traced-producer")).findFirst().orElseThrow();
                assertThat(produce.parentSpanId()).isEmpty(); // a root: clients send no trace context
                assertThat(produce.attributes()).contains("kafka.api=Produce", "kaas.partitions=1")
                        .anyMatch(a -> a.startsWith("kafka.api_version="))
                        .anyMatch(a -> a.startsWith("kafka.request.bytes="));
                ExportedSpan append = child(produce, "append");
                ExportedSpan fsync = child(produce, "fsync");
                // one span per step for all the request's partitions, not one per partition
                assertThat(append.attributes()).contains("kaas.partitions=1");
                assertThat(fsync.attributes()).contains("kaas.partitions=1");
            });
        }
    }

    @Test
    void fetchesGroupCoordinationAndTransactionsHaveTheirSteps() throws Exception {
        try (EmbeddedKaas kaas = tracedKaas().start()) {
            String topic = EmbeddedKaas.uniqueTopicName("traced-txn");
            String group = "traced-group";
            kaas.createTopic(topic, 1);
            try (KafkaProducer<byte[], byte[]> producer = kaas.producer(Map.of(
                    ProducerConfig.TRANSACTIONAL_ID_CONFIG, "traced-txn", ProducerConfig.CLIENT_ID_CONFIG, "txn-producer"))) {
                producer.initTransactions();
                producer.beginTransaction();
                producer.send(new ProducerRecord<>(topic, "in a transaction".getBytes(StandardCharsets.UTF_8)));
                producer.commitTransaction();
            }
            try (KafkaConsumer<byte[], byte[]> consumer = kaas.track(new KafkaConsumer<>(kaas.groupConsumerConfig(group,
                    Map.of(ConsumerConfig.CLIENT_ID_CONFIG, "traced-consumer", ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                            "read_committed", ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 200))))) {
                consumer.subscribe(List.of(topic));
                assertThat(EmbeddedKaas.consume(consumer, 1, EmbeddedKaas.DEFAULT_TIMEOUT)).hasSize(1);
                consumer.commitSync();
                consumer.poll(Duration.ofMillis(600)); // caught up: a fetch parks for its max wait
            }

            await().atMost(EmbeddedKaas.DEFAULT_TIMEOUT).ignoreException(NoSuchElementException.class)
                    .untilAsserted(() -> {
                // a fetch that read the committed record (one span: its reads are not children), and one that waited
                ExportedSpan reading = request("Fetch", "traced-consumer", s -> s.attributes().stream()
                        .anyMatch(a -> a.startsWith("kaas.response.bytes=") && !a.equals("kaas.response.bytes=0")));
                assertThat(reading.attributes()).contains("kaas.partitions=1");
                assertThat(received).noneMatch(s -> s.parentSpanId().equals(reading.spanId()));
                ExportedSpan waiting = request("Fetch", "traced-consumer", s -> !children(s, "parked").isEmpty());
                assertThat(child(waiting, "parked").attributes()).contains("kaas.woken_by=max wait", "kaas.max_wait_ms=200");

                assertThat(request("JoinGroup", "traced-consumer", s -> true).attributes()).contains("kaas.group=" + group);
                assertThat(request("SyncGroup", "traced-consumer", s -> true).attributes()).contains("kaas.group=" + group);
                ExportedSpan commit = request("OffsetCommit", "traced-consumer", s -> !children(s, "fsync").isEmpty());
                assertThat(commit.attributes()).contains("kaas.group=" + group, "kaas.partitions=1");
                assertThat(child(commit, "fsync").attributes()).contains("kaas.group=" + group);

                ExportedSpan init = request("InitProducerId", "txn-producer", s -> true);
                assertThat(children(init, "fsync")).hasSize(1);
                ExportedSpan end = request("EndTxn", "txn-producer", s -> true);
                assertThat(children(end, "fsync")).hasSize(1);
                assertThat(child(end, "markers").attributes()).contains("kaas.partitions=1", "kaas.groups=0",
                        "kaas.outcome=commit");
            });
        }
    }

    /** The root span of a request of {@code api} from {@code clientId} that {@code matches}. */
    private ExportedSpan request(String api, String clientId, java.util.function.Predicate<ExportedSpan> matches) {
        return received.stream().filter(s -> s.name().equals(api) && s.parentSpanId().isEmpty()
                && s.attributes().contains("kafka.client_id=" + clientId) && matches.test(s)).findFirst().orElseThrow();
    }

    private List<ExportedSpan> children(ExportedSpan parent, String name) {
        return received.stream().filter(s -> s.name().equals(name) && s.parentSpanId().equals(parent.spanId())
                && s.traceId().equals(parent.traceId())).toList();
    }

    private ExportedSpan child(ExportedSpan parent, String name) {
        return children(parent, name).stream().findFirst().orElseThrow();
    }
}
