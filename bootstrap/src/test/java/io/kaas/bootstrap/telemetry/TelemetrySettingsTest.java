package io.kaas.bootstrap.telemetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TelemetrySettingsTest {
    @Test
    void withoutAnEndpointNothingIsPushedAndTheResourceNamesTheBroker() {
        TelemetrySettings settings = TelemetrySettings.fromEnvironment(Map.of(), 3);

        assertThat(settings.otlpMetricsEndpoint()).isEmpty();
        assertThat(settings.exportIntervalMs()).isEqualTo(30_000);
        assertThat(settings.resourceAttributes()).containsExactlyInAnyOrderEntriesOf(Map.of(
                "service.name", "kaas", "kaas.broker.id", "3"));
    }

    @Test
    void theBaseEndpointGetsTheMetricsPathAndTheMetricsEndpointIsUsedAsIs() {
        assertThat(TelemetrySettings.fromEnvironment(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318/"), 0)
                .otlpMetricsEndpoint()).contains(URI.create("http://collector:4318/v1/metrics"));
        assertThat(TelemetrySettings.fromEnvironment(Map.of(
                "OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318",
                "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT", "http://prometheus:9090/api/v1/otlp/v1/metrics"), 0)
                .otlpMetricsEndpoint()).contains(URI.create("http://prometheus:9090/api/v1/otlp/v1/metrics"));
    }

    @Test
    void podNamespaceVersionAndExtraAttributesBecomeResourceAttributes() {
        TelemetrySettings settings = TelemetrySettings.fromEnvironment(Map.of(
                "MY_POD_NAME", "kaas-2", "MY_POD_NAMESPACE", "streaming", "OTEL_SERVICE_VERSION", "0.1.0",
                "OTEL_RESOURCE_ATTRIBUTES", "deployment.environment=prod,team=data%20platform",
                "OTEL_EXPORTER_OTLP_HEADERS", "x-scope-orgid=tenant-1"), 2);

        assertThat(settings.resourceAttributes()).containsEntry("k8s.pod.name", "kaas-2")
                .containsEntry("k8s.namespace.name", "streaming").containsEntry("service.version", "0.1.0")
                .containsEntry("deployment.environment", "prod").containsEntry("team", "data platform")
                .containsEntry("kaas.broker.id", "2");
        assertThat(settings.otlpHeaders()).containsExactlyEntriesOf(Map.of("x-scope-orgid", "tenant-1"));
    }

    @Test
    void exportIntervalsAreDurations() {
        assertThat(interval("500ms")).isEqualTo(500);
        assertThat(interval("15s")).isEqualTo(15_000);
        assertThat(interval("1m")).isEqualTo(60_000);
        assertThat(interval("250")).isEqualTo(250);
        assertThatThrownBy(() -> interval("0s")).hasMessageContaining("KAAS_METRIC_EXPORT_INTERVAL=0s");
        assertThatThrownBy(() -> interval("soon")).hasMessageContaining("expected a positive duration");
    }

    @Test
    void partitionGaugesAreOnUnlessTurnedOff() {
        assertThat(TelemetrySettings.fromEnvironment(Map.of(), 0).partitionGauges()).isTrue();
        assertThat(TelemetrySettings.fromEnvironment(Map.of("KAAS_METRICS_PARTITION_GAUGES", "FALSE"), 0)
                .partitionGauges()).isFalse();
        assertThatThrownBy(() -> TelemetrySettings.fromEnvironment(Map.of("KAAS_METRICS_PARTITION_GAUGES", "no"), 0))
                .hasMessageContaining("KAAS_METRICS_PARTITION_GAUGES=no: expected true or false");
    }

    @Test
    void anEndpointThatIsNotAnHttpUrlIsRefused() {
        assertThatThrownBy(() -> TelemetrySettings.fromEnvironment(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "collector:4318"),
                0)).hasMessageContaining("expected an http(s) URL");
    }

    private static long interval(String value) {
        return TelemetrySettings.fromEnvironment(Map.of("KAAS_METRIC_EXPORT_INTERVAL", value), 0).exportIntervalMs();
    }

    @Test
    void tracesGoToTheirOwnPathAndAreSampledAtAHundredthByDefault() {
        TelemetrySettings settings = TelemetrySettings.fromEnvironment(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT",
                "http://collector:4318"), 0);
        assertThat(settings.otlpTracesEndpoint()).contains(URI.create("http://collector:4318/v1/traces"));
        assertThat(settings.traceSampleRatio()).isEqualTo(0.01);
        assertThat(settings.traceExportDelayMs()).isEqualTo(5_000);
        assertThat(TelemetrySettings.fromEnvironment(Map.of(), 0).otlpTracesEndpoint()).isEmpty();
    }

    @Test
    void theStandardSamplersAreHonoured() {
        assertThat(TelemetrySettings.sampleRatio(Map.of("OTEL_TRACES_SAMPLER", "always_on"))).isEqualTo(1.0);
        assertThat(TelemetrySettings.sampleRatio(Map.of("OTEL_TRACES_SAMPLER", "parentbased_always_off"))).isZero();
        assertThat(TelemetrySettings.sampleRatio(Map.of("OTEL_TRACES_SAMPLER", "traceidratio",
                "OTEL_TRACES_SAMPLER_ARG", "0.1"))).isEqualTo(0.1);
        assertThat(TelemetrySettings.sampleRatio(Map.of("OTEL_TRACES_SAMPLER", "parentbased_traceidratio")))
                .as("the default ratio").isEqualTo(0.01);
        assertThat(TelemetrySettings.sampleRatio(Map.of("OTEL_TRACES_SAMPLER_ARG", "1.0"))).isEqualTo(1.0);
        assertThatThrownBy(() -> TelemetrySettings.sampleRatio(Map.of("OTEL_TRACES_SAMPLER_ARG", "2")))
                .hasMessageContaining("OTEL_TRACES_SAMPLER_ARG=2");
        assertThatThrownBy(() -> TelemetrySettings.sampleRatio(Map.of("OTEL_TRACES_SAMPLER", "jaeger_remote")))
                .hasMessageContaining("OTEL_TRACES_SAMPLER=jaeger_remote");
    }
}
