package io.kaas.bench;

import io.kaas.application.port.in.TraceSpan;
import io.kaas.bootstrap.telemetry.BrokerTracing;
import io.kaas.bootstrap.telemetry.TelemetrySettings;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What sending a span costs the export thread once its code is compiled (a long-running broker's case;
 * {@link ObservabilityBenchmark}'s trials export too few spans to get there): a batch of 512 of the spans a
 * sampled produce makes (the request's, its {@code append} and {@code fsync} steps, with their attributes)
 * serialized to OTLP protobuf as the OTLP/HTTP exporter does. Reported per span.
 */
@Fork(3)
public class SpanExportBenchmark extends BenchmarkDefaults {
    private static final int BATCH = 512;
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private final OtlpBytesExporter exporter = new OtlpBytesExporter();
    private List<SpanData> batch;

    @Setup
    public void setUp() {
        List<SpanData> captured = new ArrayList<>();
        SpanExporter capture = new SpanExporter() {
            @Override
            public synchronized CompletableResultCode export(Collection<SpanData> spans) {
                captured.addAll(spans);
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
        TelemetrySettings settings = TelemetrySettings.fromEnvironment(Map.of(
                "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "http://127.0.0.1:4318/v1/traces", "OTEL_TRACES_SAMPLER",
                "always_on"), 1);
        try (BrokerTracing tracing = BrokerTracing.exportingTo(capture, settings)) {
            for (int i = 0; i < BATCH / 3 + 1; i++) {
                TraceSpan request = tracing.startRequest("Produce", 9, "producer-" + (i % 8), 100_000)
                        .attribute("kaas.partitions", 6);
                request.child("append").attribute("kaas.partitions", 6).end();
                request.child("fsync").attribute("kaas.partitions", 6).end();
                request.end();
            }
        }
        synchronized (capture) {
            batch = List.copyOf(captured.subList(0, BATCH));
        }
    }

    /** The export thread's CPU time per span this iteration: the wall-clock score counts waits for a core too. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.EVENTS)
    public static class Cpu {
        long nanos;
        long spans;
        public double cpuNsPerSpan;

        @Setup(Level.Iteration)
        public void reset() {
            nanos = 0;
            spans = 0;
        }

        @TearDown(Level.Iteration)
        public void report() {
            cpuNsPerSpan = (double) nanos / Math.max(spans, 1);
        }
    }

    /** One batch, as the batch processor hands it over; the score is per span. */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public Object exportBatch(Cpu cpu) {
        long started = THREADS.getCurrentThreadCpuTime();
        Object result = exporter.export(batch);
        cpu.nanos += THREADS.getCurrentThreadCpuTime() - started;
        cpu.spans += BATCH;
        return result;
    }
}
