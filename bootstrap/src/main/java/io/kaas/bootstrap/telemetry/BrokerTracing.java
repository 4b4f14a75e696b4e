package io.kaas.bootstrap.telemetry;

import io.kaas.application.port.in.TraceSpan;
import io.kaas.application.port.in.Tracer;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporter;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporterBuilder;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.time.Instant;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The broker's {@link Tracer}: a span per sampled request, exported over OTLP/HTTP in batches by a thread
 * of its own (ending a span only queues it; a full queue drops it).
 *
 * <p>Sampling is decided here, before anything is built: the SDK's samplers want the trace id as a
 * hex string, which would cost an id and a string per request even when the answer is no. Every
 * request is a trace root (Kafka requests carry no trace context), so a uniform draw at the ratio is
 * what {@code traceidratio} would decide; the children of a sampled span are always sampled.
 *
 * <p>A sampled request is rare (1 % by default) and so runs cold: through the SDK's span code it cost several
 * requests' CPU (docs/perf/2026-12-03-observability-4.md). So the request thread records a span in a
 * {@link RecordedSpan} of a few fields, and only the export thread builds what the SDK's exporters take.
 */
public final class BrokerTracing implements Tracer, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(BrokerTracing.class);

    private final SpanExportQueue exports;
    private final double sampleRatio;
    /** The wall clock read once, spans timed from it on the monotonic clock (as the SDK's anchored clock does). */
    private final long anchorEpochNanos;
    private final long anchorNanoTime;

    BrokerTracing(SpanExporter exporter, Resource resource, double sampleRatio, long exportDelayMs) {
        Instant now = Instant.now();
        this.anchorNanoTime = System.nanoTime();
        this.anchorEpochNanos = TimeUnit.SECONDS.toNanos(now.getEpochSecond()) + now.getNano();
        this.sampleRatio = sampleRatio;
        this.exports = new SpanExportQueue(exporter, resource, exportDelayMs);
    }

    /** Tracing as the settings ask: nothing at all without an OTLP traces endpoint or with a ratio of 0. */
    public static Tracer start(TelemetrySettings settings) {
        if (settings.otlpTracesEndpoint().isEmpty() || settings.traceSampleRatio() <= 0) {
            return Tracer.NONE;
        }
        OtlpHttpSpanExporterBuilder exporter = OtlpHttpSpanExporter.builder()
                .setEndpoint(settings.otlpTracesEndpoint().get().toString());
        settings.otlpHeaders().forEach(exporter::addHeader);
        LOG.info("tracing {} of requests over OTLP/HTTP to {}", settings.traceSampleRatio(),
                settings.otlpTracesEndpoint().get());
        return exportingTo(exporter.build(), settings);
    }

    /**
     * Tracing as {@link #start} sets it up, the sampling ratio and batching included, with the finished spans
     * going to {@code exporter} (the benchmarks' stand-in for the OTLP/HTTP one).
     */
    public static BrokerTracing exportingTo(SpanExporter exporter, TelemetrySettings settings) {
        return new BrokerTracing(exporter, resource(settings), settings.traceSampleRatio(),
                settings.traceExportDelayMs());
    }

    /** The resource every span carries: the same attributes as the metrics'. */
    static Resource resource(TelemetrySettings settings) {
        AttributesBuilder attributes = Attributes.builder();
        settings.resourceAttributes().forEach(attributes::put);
        return Resource.getDefault().merge(Resource.create(attributes.build()));
    }

    @Override
    public TraceSpan startRequest(String api, int apiVersion, String clientId, int requestBytes) {
        if (sampleRatio < 1.0 && ThreadLocalRandom.current().nextDouble() >= sampleRatio) {
            return TraceSpan.NONE;
        }
        return RecordedSpan.request(this, api, apiVersion, clientId, requestBytes);
    }

    /** A random trace or span id, never the invalid 0. */
    long newId() {
        long id;
        do {
            id = ThreadLocalRandom.current().nextLong();
        } while (id == 0);
        return id;
    }

    long epochNanos() {
        return anchorEpochNanos + (System.nanoTime() - anchorNanoTime);
    }

    void ended(RecordedSpan span) {
        exports.add(span);
    }

    /** Sends what is queued, then stops. */
    @Override
    public void close() {
        exports.close();
    }
}
