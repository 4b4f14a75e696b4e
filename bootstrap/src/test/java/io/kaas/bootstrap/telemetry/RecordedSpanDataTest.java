package io.kaas.bootstrap.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.application.port.in.TraceSpan;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.data.StatusData;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RecordedSpanDataTest {
    private static final String HEX_32 = "[0-9a-f]{32}";
    private static final String HEX_16 = "[0-9a-f]{16}";

    @Test
    void aRecordedRequestAndItsStepBecomeTheSpanDataTheSdkWouldExport() {
        TelemetrySettings settings = TelemetrySettings.fromEnvironment(Map.of(), 7);
        try (BrokerTracing tracing = new BrokerTracing(SpanExporter.composite(), BrokerTracing.resource(settings),
                1.0, settings.traceExportDelayMs())) {
            long before = tracing.epochNanos();
            RecordedSpan request = (RecordedSpan) tracing.startRequest("Fetch", 12, null, 300)
                    .attribute("kaas.partitions", 3).attribute("kaas.group", "g").attribute("kaas.partitions", 4);
            RecordedSpan parked = (RecordedSpan) request.child("parked").attribute("kaas.woken_by", "max wait");
            parked.fail(new IllegalStateException("volume gone"));
            parked.end();
            request.end();
            request.attribute("kaas.late", 1); // after the end: ignored, as the SDK ignores it

            SpanData root = new RecordedSpanData(request, BrokerTracing.resource(settings));
            SpanData step = new RecordedSpanData(parked, BrokerTracing.resource(settings));

            assertThat(root.getTraceId()).matches(HEX_32)
                    .isEqualTo(RecordedSpan.hex(request.traceIdHigh) + RecordedSpan.hex(request.traceIdLow));
            assertThat(root.getSpanId()).matches(HEX_16).isEqualTo(RecordedSpan.hex(request.spanId))
                    .isNotEqualTo(step.getSpanId());
            assertThat(root.getSpanContext().isSampled()).isTrue();
            assertThat(root.getParentSpanContext().isValid()).isFalse();
            assertThat(root.getName()).isEqualTo("Fetch");
            assertThat(root.getKind()).isEqualTo(SpanKind.SERVER);
            assertThat(root.getAttributes().asMap()).containsOnly(
                    Map.entry(AttributeKey.stringKey("kafka.api"), "Fetch"),
                    Map.entry(AttributeKey.longKey("kafka.api_version"), 12L),
                    Map.entry(AttributeKey.stringKey("kafka.client_id"), ""),
                    Map.entry(AttributeKey.longKey("kafka.request.bytes"), 300L),
                    Map.entry(AttributeKey.longKey("kaas.partitions"), 4L),
                    Map.entry(AttributeKey.stringKey("kaas.group"), "g"));
            assertThat(root.getStatus()).isEqualTo(StatusData.unset());
            assertThat(root.getEvents()).isEmpty();
            assertThat(root.getStartEpochNanos()).isGreaterThanOrEqualTo(before)
                    .isLessThanOrEqualTo(step.getStartEpochNanos());
            assertThat(root.getEndEpochNanos()).isGreaterThanOrEqualTo(step.getEndEpochNanos());
            assertThat(root.getResource().getAttributes().asMap().toString()).contains("kaas.broker.id=7");
            assertThat(root.getInstrumentationScopeInfo().getName()).isEqualTo("io.kaas.broker");

            assertThat(step.getTraceId()).isEqualTo(root.getTraceId());
            assertThat(step.getParentSpanId()).isEqualTo(root.getSpanId());
            assertThat(step.getParentSpanContext().getTraceId()).isEqualTo(root.getTraceId());
            assertThat(step.getKind()).isEqualTo(SpanKind.INTERNAL);
            assertThat(step.getAttributes().asMap()).containsOnly(
                    Map.entry(AttributeKey.stringKey("kaas.woken_by"), "max wait"));
            assertThat(step.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
            assertThat(step.getStatus().getDescription()).isEqualTo("volume gone");
            assertThat(step.getEvents()).singleElement().satisfies(event -> {
                assertThat(event.getName()).isEqualTo("exception");
                assertThat(event.getAttributes().get(AttributeKey.stringKey("exception.type")))
                        .isEqualTo("java.lang.IllegalStateException");
                assertThat(event.getAttributes().get(AttributeKey.stringKey("exception.message")))
                        .isEqualTo("volume gone");
                assertThat(event.getAttributes().get(AttributeKey.stringKey("exception.stacktrace")))
                        .contains("RecordedSpanDataTest");
            });
            assertThat(step.getTotalRecordedEvents()).isEqualTo(1);
            assertThat(step.getTotalAttributeCount()).isEqualTo(1);
        }
    }

    @Test
    void aSpanIdIsItsSixteenHexDigitsWithLeadingZeros() {
        assertThat(RecordedSpan.hex(0xabL)).isEqualTo("00000000000000ab");
        assertThat(RecordedSpan.hex(-1L)).isEqualTo("ffffffffffffffff");
        assertThat(RecordedSpan.hex(0x0af7651916cd43ddL)).isEqualTo("0af7651916cd43dd");
    }

    @Test
    void theCurrentSpanOfALogLineIsTheActivatedRecordedOne() {
        TelemetrySettings settings = TelemetrySettings.fromEnvironment(Map.of(), 7);
        try (BrokerTracing tracing = new BrokerTracing(SpanExporter.composite(), BrokerTracing.resource(settings),
                1.0, settings.traceExportDelayMs())) {
            RecordedSpan request = (RecordedSpan) tracing.startRequest("Produce", 9, "c", 1);
            TraceSpan append = request.child("append");
            try (TraceSpan.Scope ignored = append.activate()) {
                assertThat(RecordedSpan.currentContext().getTraceId())
                        .isEqualTo(RecordedSpan.hex(request.traceIdHigh) + RecordedSpan.hex(request.traceIdLow));
                assertThat(RecordedSpan.currentContext().getSpanId())
                        .isEqualTo(RecordedSpan.hex(((RecordedSpan) append).spanId));
            }
            assertThat(RecordedSpan.currentContext().isValid()).isFalse();
        }
    }
}
