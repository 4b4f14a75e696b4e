package io.kaas.bootstrap.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.application.port.in.TraceSpan;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

class BrokerTracingTest {
    private final List<SpanData> exported = new CopyOnWriteArrayList<>();
    private final SpanExporter memory = new SpanExporter() {
        @Override
        public CompletableResultCode export(Collection<SpanData> spans) {
            exported.addAll(spans);
            return CompletableResultCode.ofSuccess();
        }

        @Override
        public CompletableResultCode flush() {
            return CompletableResultCode.ofSuccess();
        }

        @Override
        public CompletableResultCode shutdown() {
            return CompletableResultCode.ofSuccess();
        }
    };

    @Test
    void aSampledRequestNestsItsStepsAndIsCurrentWhileActive() {
        List<String> current = new ArrayList<>();
        try (BrokerTracing tracing = tracing(1.0)) {
            TraceSpan request = tracing.startRequest("Produce", 9, "client-1", 512).attribute("kaas.partitions", 2);
            TraceSpan append = request.child("append").attribute("kaas.topic", "orders");
            for (int partition = 0; partition < 2; partition++) { // as a produce's appends activate their span
                try (TraceSpan.Scope ignored = append.activate()) {
                    current.add(RecordedSpan.currentContext().getSpanId()); // what a log line carries
                    assertThat(TraceSpan.current()).isSameAs(append);
                }
                assertThat(RecordedSpan.currentContext().isValid()).isFalse();
                assertThat(TraceSpan.current()).isSameAs(TraceSpan.NONE);
            }
            append.end();
            TraceSpan fsync = request.child("fsync");
            fsync.fail(new IllegalStateException("volume gone"));
            fsync.end();
            request.end();
        }
        SpanData root = byName("Produce");
        assertThat(root.getParentSpanContext().isValid()).isFalse();
        assertThat(root.getAttributes().asMap().toString()).contains("kafka.client_id=client-1", "kafka.api_version=9",
                "kafka.request.bytes=512", "kaas.partitions=2");
        assertThat(current).as("the log's span while active, each time").containsExactly(byName("append").getSpanId(),
                byName("append").getSpanId());
        assertThat(byName("append").getParentSpanId()).isEqualTo(root.getSpanId());
        assertThat(byName("append").getTraceId()).isEqualTo(root.getTraceId());
        assertThat(byName("fsync").getParentSpanId()).isEqualTo(root.getSpanId());
        assertThat(byName("fsync").getStatus().getDescription()).isEqualTo("volume gone");
        assertThat(byName("append").getResource().getAttributes().asMap().toString()).contains("kaas.broker.id=7");
    }

    @Test
    void theRatioDecidesHowManyRequestsAreTraced() {
        int sampled = 0;
        try (BrokerTracing tracing = tracing(0.25)) {
            for (int i = 0; i < 4_000; i++) {
                TraceSpan span = tracing.startRequest("Fetch", 12, "c", 100);
                if (span != TraceSpan.NONE) {
                    sampled++;
                }
                span.end();
            }
            assertThat(sampled).isBetween(700, 1_300); // 1,000 expected; six standard deviations either side
        }
        assertThat(exported).hasSize(sampled); // closing sent them all
    }

    @Test
    void anUnsampledRequestAllocatesNothing() {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        try (BrokerTracing tracing = tracing(0.0)) {
            unsampledRequests(tracing, 20_000); // warm up: compiled, and ThreadLocalRandom seeded
            long before = threads.getCurrentThreadAllocatedBytes();
            unsampledRequests(tracing, 100_000);
            long allocated = threads.getCurrentThreadAllocatedBytes() - before;
            // nothing per request: 100,000 requests allocating even 8 bytes each would be 800 KB
            assertThat(allocated).isLessThan(16_384);
        }
        assertThat(exported).isEmpty();
    }

    private static void unsampledRequests(BrokerTracing tracing, int count) {
        for (int i = 0; i < count; i++) {
            TraceSpan request = tracing.startRequest("Produce", 9, "client", 1024).attribute("kaas.partitions", i);
            TraceSpan append = request.child("append").attribute("kaas.topic", "orders").attribute("kaas.partition", 0);
            try (TraceSpan.Scope ignored = append.activate()) {
                append.end();
            }
            try (TraceSpan.Scope ignored = request.activate()) {
                // what the fetch, group and transaction steps do: find the request's span, time a step's future
                TraceSpan.current().child("fsync").attribute("kaas.group", "g").endWhenDone(DONE);
            }
            request.end();
        }
    }

    private static final CompletableFuture<Void> DONE = CompletableFuture.completedFuture(null);

    private BrokerTracing tracing(double ratio) {
        TelemetrySettings settings = TelemetrySettings.fromEnvironment(Map.of(), 7);
        return new BrokerTracing(memory, BrokerTracing.resource(settings), ratio, settings.traceExportDelayMs());
    }

    private SpanData byName(String name) {
        return exported.stream().filter(s -> s.getName().equals(name)).findFirst().orElseThrow();
    }
}
