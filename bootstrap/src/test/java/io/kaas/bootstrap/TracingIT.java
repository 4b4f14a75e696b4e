package io.kaas.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import io.kaas.bootstrap.telemetry.OtlpSpans;
import io.kaas.bootstrap.telemetry.OtlpSpans.ExportedSpan;
import io.kaas.bootstrap.testing.EmbeddedKaas;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

/** Request traces as an OpenTelemetry collector receives them over OTLP/HTTP. */
class TracingIT {

    @Test
    void anAcksAllProduceIsARequestSpanWithAppendAndFsyncChildren() throws Exception {
        List<ExportedSpan> received = new CopyOnWriteArrayList<>();
        HttpServer collector = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        collector.createContext("/v1/traces", exchange -> {
            try (exchange; InputStream body = exchange.getRequestBody()) {
                received.addAll(OtlpSpans.read(body.readAllBytes()));
                exchange.sendResponseHeaders(200, -1);
            }
        });
        collector.start();
        Map<String, String> env = new HashMap<>();
        env.put("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:" + collector.getAddress().getPort());
        env.put("OTEL_TRACES_SAMPLER", "parentbased_traceidratio");
        env.put("OTEL_TRACES_SAMPLER_ARG", "1.0");
        env.put("OTEL_BSP_SCHEDULE_DELAY", "100ms");
        env.put("KAAS_METRIC_EXPORT_INTERVAL", "1h");
        try (EmbeddedKaas kaas = EmbeddedKaas.inTempDir(env).start()) {
            String topic = EmbeddedKaas.uniqueTopicName("traced");
            kaas.createTopic(topic, 1);
            try (KafkaProducer<byte[], byte[]> producer = kaas.producer(Map.of(ProducerConfig.ACKS_CONFIG, "all",
                    ProducerConfig.CLIENT_ID_CONFIG, "traced-producer"))) {
                producer.send(new ProducerRecord<>(topic, "traced".getBytes(StandardCharsets.UTF_8))).get();
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
                ExportedSpan append = child(received, produce, "append");
                ExportedSpan fsync = child(received, produce, "fsync");
                assertThat(append.attributes()).contains("kaas.topic=" + topic, "kaas.partition=0");
                assertThat(fsync.attributes()).contains("kaas.topic=" + topic);
            });
        } finally {
            collector.stop(0);
        }
    }

    private static ExportedSpan child(List<ExportedSpan> spans, ExportedSpan parent, String name) {
        return spans.stream().filter(s -> s.name().equals(name) && s.parentSpanId().equals(parent.spanId())
                && s.traceId().equals(parent.traceId())).findFirst().orElseThrow();
    }
}
