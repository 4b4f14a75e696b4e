package io.kaas.bootstrap.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.kaas.application.metrics.BrokerMetrics;
import io.kaas.application.metrics.ConsumerLag.PartitionLag;
import io.kaas.domain.quota.QuotaType;
import io.kaas.domain.topic.TopicPartition;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The Grafana dashboard and the alert rules the chart ships query only series a broker exports: each
 * metric name in their PromQL is a sample name of the {@code /metrics} text rendered after every
 * instrument recorded something.
 */
class DashboardAndAlertsTest {
    private static final Path DASHBOARD = Path.of("..", "helm", "kaas", "dashboards", "kaas-overview.json");
    private static final Path ALERTS = Path.of("..", "helm", "kaas", "alerts", "kaas-alerts.yaml");
    /** Series Prometheus writes itself for every scrape target. */
    private static final Set<String> SCRAPE_SERIES = Set.of("up");
    private static final Pattern LABEL_VALUES = Pattern.compile("label_values\\((.*),\\s*\\w+\\)");
    private static final Pattern FAMILY_SUFFIX = Pattern.compile("_(bucket|sum|count)$");

    @Test
    void everyDashboardQueryNamesAnExportedMetric() throws IOException {
        List<String> queries = dashboardQueries(new ObjectMapper().readTree(DASHBOARD.toFile()));

        assertThat(queries).hasSizeGreaterThan(20);
        assertThat(unknownNames(queries)).as("metric names in %s the broker does not export", DASHBOARD).isEmpty();
    }

    @Test
    void everyAlertNamesAnExportedMetric() throws IOException {
        List<String> expressions = alertExpressions(new YAMLMapper().readTree(ALERTS.toFile()));

        assertThat(expressions).hasSizeGreaterThanOrEqualTo(6);
        assertThat(unknownNames(expressions)).as("metric names in %s the broker does not export", ALERTS).isEmpty();
    }

    @Test
    void theNewestMetricsAreExportedUnderTheNamesTheFilesUse() throws IOException {
        assertThat(exportedNames()).contains("kaas_produce_step_duration_seconds_bucket", "kaas_log_size_bytes",
                "kaas_log_segments", "kaas_consumer_group_rebalances_total", "kaas_transactions_active",
                "kaas_transactions_oldest_age_seconds", "kaas_controller_present", "kaas_codec_record_decode_total",
                "kaas_codec_batch_reencode_total");
        assertThat(alertExpressions(new YAMLMapper().readTree(ALERTS.toFile())))
                .anyMatch(expr -> expr.contains("kaas_controller_present"));
    }

    @Test
    void theDashboardShowsEveryBrokerMetric() throws IOException {
        Set<String> shown = dashboardQueries(new ObjectMapper().readTree(DASHBOARD.toFile())).stream()
                .flatMap(q -> PromQlMetricNames.in(q).stream()).map(DashboardAndAlertsTest::family)
                .collect(Collectors.toSet());
        Set<String> exported = exportedNames().stream().filter(n -> n.startsWith("kaas_") || n.startsWith("jvm_"))
                .map(DashboardAndAlertsTest::family).collect(Collectors.toCollection(TreeSet::new));

        assertThat(shown).containsAll(exported);
    }

    @Test
    void everyPanelQueriesTheChosenPrometheus() throws IOException {
        JsonNode dashboard = new ObjectMapper().readTree(DASHBOARD.toFile());
        JsonNode variable = dashboard.path("templating").path("list").get(0);
        assertThat(variable.path("name").asText()).isEqualTo("datasource");
        assertThat(variable.path("type").asText()).isEqualTo("datasource");
        assertThat(variable.path("query").asText()).isEqualTo("prometheus");

        List<JsonNode> panels = panels(dashboard);
        assertThat(panels).hasSizeGreaterThan(15);
        assertThat(panels).allSatisfy(panel -> {
            assertThat(panel.path("datasource").path("uid").asText()).as(panel.path("title").asText())
                    .isEqualTo("${datasource}");
            assertThat(panel.path("targets")).as(panel.path("title").asText()).isNotEmpty();
        });
    }

    @Test
    void everyAlertSaysHowBadAndWhatItMeans() throws IOException {
        JsonNode rules = new YAMLMapper().readTree(ALERTS.toFile());
        List<JsonNode> alerts = new ArrayList<>();
        rules.path("groups").forEach(group -> group.path("rules").forEach(alerts::add));

        assertThat(alerts).allSatisfy(alert -> {
            assertThat(alert.path("alert").asText()).matches("Kaas[A-Za-z]+");
            assertThat(alert.path("labels").path("severity").asText()).isIn("warning", "critical");
            assertThat(alert.path("annotations").path("summary").asText()).isNotBlank();
            assertThat(alert.path("annotations").path("description").asText()).isNotBlank();
        });
    }

    @Test
    void aQueryNamingAMissingMetricIsCaught() throws IOException {
        // The counter without the _total the exporter appends: the mistake this check exists for.
        String fixture = """
                {"panels": [{"type": "row", "panels": [{"type": "timeseries", "datasource": {"uid": "${datasource}"},
                  "targets": [{"expr": "sum by (topic) (rate(kaas_topic_incoming_bytes{job=~\\"$job\\"}[5m]))"}]}]}],
                 "templating": {"list": [{"type": "query", "query": {"query": "label_values(kaas_nope, instance)"}}]}}
                """;

        assertThat(unknownNames(dashboardQueries(new ObjectMapper().readTree(fixture))))
                .containsExactly("kaas_nope", "kaas_topic_incoming_bytes");
    }

    /** The PromQL of every panel's targets (rows included) and of the template variables' queries. */
    private static List<String> dashboardQueries(JsonNode dashboard) {
        List<String> queries = new ArrayList<>();
        panels(dashboard).forEach(panel -> panel.path("targets").forEach(t -> queries.add(t.path("expr").asText())));
        dashboard.path("templating").path("list").forEach(variable -> {
            if (variable.path("type").asText().equals("query")) {
                Matcher m = LABEL_VALUES.matcher(variable.path("query").path("query").asText());
                queries.add(m.matches() ? m.group(1) : variable.path("query").path("query").asText());
            }
        });
        return queries;
    }

    /** Every panel that is not a row, including those inside a collapsed row. */
    private static List<JsonNode> panels(JsonNode dashboard) {
        List<JsonNode> panels = new ArrayList<>();
        dashboard.path("panels").forEach(panel -> {
            if (panel.path("type").asText().equals("row")) {
                panel.path("panels").forEach(panels::add);
            } else {
                panels.add(panel);
            }
        });
        return panels;
    }

    private static List<String> alertExpressions(JsonNode rules) {
        List<String> expressions = new ArrayList<>();
        rules.path("groups").forEach(group -> group.path("rules")
                .forEach(rule -> expressions.add(rule.path("expr").asText())));
        return expressions;
    }

    private static Set<String> unknownNames(List<String> queries) {
        Set<String> exported = exportedNames();
        return queries.stream().flatMap(q -> PromQlMetricNames.in(q).stream())
                .filter(name -> !exported.contains(name) && !SCRAPE_SERIES.contains(name))
                .collect(Collectors.toCollection(TreeSet::new));
    }

    /** Sample names of the text a broker renders once every instrument recorded a labelled value. */
    private static Set<String> exportedNames() {
        BrokerMetrics metrics = new BrokerMetrics(() -> 0L);
        metrics.topic("orders").appended(100, 3);
        metrics.topic("orders").sent(100);
        metrics.requestCompleted(0, "Produce", 1_000_000, false);
        metrics.requestCompleted(1, "Fetch", 1_000_000, true);
        metrics.connectionOpened("PLAINTEXT");
        metrics.fsyncNanos().record(2_000_000);
        metrics.groupCommitAppends().record(4);
        metrics.throttleTime(QuotaType.PRODUCE).record(250);
        metrics.produceStep(BrokerMetrics.ProduceStep.FSYNC_WAIT).record(1_000_000);
        TopicPartition orders = new TopicPartition("orders", 0);
        FixedGauges gauges = new FixedGauges(new BrokerGauges.PartitionCounts(1, 0),
                List.of(new PartitionLag("billing", orders, 5)), List.of(new BrokerGauges.PartitionStorage(orders, 4096, 2)),
                Map.of("billing", 3L), new BrokerGauges.Transactions(1, 2_000),
                List.of(new BrokerGauges.LogDirSpace("default", "/data", 1 << 30, 1 << 29)), false);
        try (BrokerTelemetry telemetry = BrokerTelemetry.start(TelemetrySettings.fromEnvironment(Map.of(), 0), metrics,
                gauges)) {
            String text = new String(telemetry.prometheusText(), StandardCharsets.UTF_8);
            return PrometheusText.parse(text).samples().stream().map(PrometheusText.Sample::name)
                    .collect(Collectors.toCollection(TreeSet::new));
        }
    }

    private static String family(String sampleName) {
        return FAMILY_SUFFIX.matcher(sampleName).replaceFirst("");
    }
}
