package io.kaas.bootstrap.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.application.metrics.BrokerMetrics;
import io.kaas.application.metrics.ConsumerLag.PartitionLag;
import io.kaas.domain.topic.TopicPartition;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code /metrics} text as Prometheus parses it, whatever the clients named things. */
class BrokerTelemetryTest {
    private static final String HOSTILE = "evil\"} 1\nkaas_injected_total 42\n# \\back\\slash";

    @Test
    void hostileLabelValuesAreEscapedNotInjected() {
        BrokerMetrics metrics = new BrokerMetrics(() -> 0L);
        metrics.topic(HOSTILE).appended(100, 3);
        metrics.connectionOpened(HOSTILE);
        metrics.requestCompleted(0, HOSTILE, 1_000, true);
        List<PartitionLag> lag = List.of(new PartitionLag(HOSTILE, new TopicPartition(HOSTILE, 2), 7));
        try (BrokerTelemetry telemetry = BrokerTelemetry.start(TelemetrySettings.fromEnvironment(Map.of(), 0), metrics,
                FixedGauges.of(1, 0, lag))) {
            String text = new String(telemetry.prometheusText(), StandardCharsets.UTF_8);

            PrometheusText parsed = PrometheusText.parse(text);
            assertThat(parsed.samples()).noneMatch(s -> s.name().startsWith("kaas_injected"));
            assertThat(parsed.value("kaas_topic_incoming_bytes_total", Map.of("topic", HOSTILE))).hasValue(100);
            assertThat(parsed.value("kaas_topic_incoming_records_total", Map.of("topic", HOSTILE))).hasValue(3);
            assertThat(parsed.value("kaas_connections", Map.of("listener", HOSTILE))).hasValue(1);
            assertThat(parsed.value("kaas_request_errors_total", Map.of("api", HOSTILE))).hasValue(1);
            assertThat(parsed.value("kaas_request_duration_seconds_count", Map.of("api", HOSTILE))).hasValue(1);
            assertThat(parsed.value("kaas_consumer_group_lag", Map.of("group", HOSTILE, "topic", HOSTILE,
                    "partition", "2"))).hasValue(7);
            assertThat(parsed.value("kaas_partitions_led", Map.of())).hasValue(1);
        }
    }

    @Test
    void storageGaugesArePerPartitionUnlessTurnedToPerTopic() {
        List<BrokerGauges.PartitionStorage> storage = List.of(
                new BrokerGauges.PartitionStorage(new TopicPartition("orders", 0), 1_000, 2),
                new BrokerGauges.PartitionStorage(new TopicPartition("orders", 1), 500, 1),
                new BrokerGauges.PartitionStorage(new TopicPartition("audit", 0), 70, 1));
        FixedGauges gauges = new FixedGauges(new BrokerGauges.PartitionCounts(3, 0), List.of(), storage, Map.of(),
                new BrokerGauges.Transactions(0, 0), List.of(), true);
        BrokerMetrics metrics = new BrokerMetrics(() -> 0L);

        try (BrokerTelemetry telemetry = BrokerTelemetry.start(TelemetrySettings.fromEnvironment(Map.of(), 0), metrics,
                gauges)) {
            PrometheusText parsed = PrometheusText.parse(new String(telemetry.prometheusText(), StandardCharsets.UTF_8));
            assertThat(parsed.value("kaas_log_size_bytes", Map.of("topic", "orders", "partition", "1"))).hasValue(500);
            assertThat(parsed.samples()).filteredOn(s -> s.name().equals("kaas_log_segments")).hasSize(3);
        }
        try (BrokerTelemetry telemetry = BrokerTelemetry.start(TelemetrySettings.fromEnvironment(
                Map.of("KAAS_METRICS_PARTITION_GAUGES", "false"), 0), metrics, gauges)) {
            PrometheusText parsed = PrometheusText.parse(new String(telemetry.prometheusText(), StandardCharsets.UTF_8));
            assertThat(parsed.value("kaas_log_size_bytes", Map.of("topic", "orders"))).hasValue(1_500);
            assertThat(parsed.value("kaas_log_segments", Map.of("topic", "orders"))).hasValue(3);
            assertThat(parsed.value("kaas_log_size_bytes", Map.of("topic", "audit"))).hasValue(70);
            assertThat(parsed.samples()).filteredOn(s -> s.labels().containsKey("partition")).isEmpty();
        }
    }

    @Test
    void histogramsExportSecondsWithCumulativeBuckets() {
        BrokerMetrics metrics = new BrokerMetrics(() -> 0L);
        metrics.fsyncNanos().record(300_000);      // 0.3 ms: in the 0.5 ms bucket
        metrics.fsyncNanos().record(7_000_000);    // 7 ms: in the 10 ms bucket
        metrics.fsyncNanos().record(60_000_000_000L); // a minute: above every bound
        metrics.journalFsyncNanos().record(40_000_000); // 40 ms, the journal's: in the 50 ms bucket
        metrics.groupCommitAppends().record(3);
        metrics.fsyncBytes().record(20_000);
        metrics.produceStep(BrokerMetrics.ProduceStep.FSYNC_WAIT).record(2_000_000);
        try (BrokerTelemetry telemetry = BrokerTelemetry.start(TelemetrySettings.fromEnvironment(Map.of(), 0), metrics,
                FixedGauges.of(4, 1, List.of()))) {
            PrometheusText parsed = PrometheusText.parse(new String(telemetry.prometheusText(), StandardCharsets.UTF_8));

            String fsync = "kaas_log_fsync_duration_seconds";
            assertThat(parsed.value(fsync + "_bucket", Map.of("log", "segments", "le", "5.0E-4"))).hasValue(1);
            assertThat(parsed.value(fsync + "_bucket", Map.of("log", "segments", "le", "0.01"))).hasValue(2);
            assertThat(parsed.value(fsync + "_bucket", Map.of("log", "segments", "le", "+Inf"))).hasValue(3);
            assertThat(parsed.value(fsync + "_count", Map.of("log", "segments"))).hasValue(3);
            assertThat(parsed.value(fsync + "_count", Map.of("log", "journal"))).hasValue(1); // its own series
            assertThat(parsed.value(fsync + "_bucket", Map.of("log", "journal", "le", "0.05"))).hasValue(1);
            assertThat(parsed.value(fsync + "_bucket", Map.of("log", "journal", "le", "0.025"))).hasValue(0);
            assertThat(parsed.value(fsync + "_sum", Map.of("log", "segments")).getAsDouble())
                    .isCloseTo(60.0073, org.assertj.core.data.Offset.offset(1e-9));
            assertThat(parsed.value("kaas_log_group_commit_appends_bucket", Map.of("le", "4.0"))).hasValue(1);
            assertThat(parsed.value("kaas_log_group_commit_appends_bucket", Map.of("le", "2.0"))).hasValue(0);
            assertThat(parsed.value("kaas_log_fsync_bytes_bucket", Map.of("le", "65536.0"))).hasValue(1);
            assertThat(parsed.value("kaas_log_fsync_bytes_bucket", Map.of("le", "16384.0"))).hasValue(0);
            assertThat(parsed.value("kaas_produce_step_duration_seconds_sum", Map.of("step", "fsync_wait")))
                    .hasValue(0.002);
            assertThat(parsed.value("kaas_produce_step_duration_seconds_count", Map.of("step", "queue"))).hasValue(0);
            assertThat(parsed.value("kaas_produce_acks_before_sync_total", Map.of())).hasValue(0);
            assertThat(parsed.value("kaas_partitions_led", Map.of())).hasValue(4);
            assertThat(parsed.value("kaas_partitions_stalled", Map.of())).hasValue(1);
        }
    }
}
