package io.kaas.bootstrap.telemetry;

import io.kaas.application.port.in.TraceSpan;
import io.kaas.application.port.in.Tracer;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Context;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporter;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporterBuilder;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.SpanProcessor;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The broker's {@link Tracer} on the OpenTelemetry SDK: a span per sampled request, exported over
 * OTLP/HTTP in batches by the SDK's own thread (ending a span only queues it; a full queue drops it).
 *
 * <p>Sampling is decided here, before anything is built: the SDK's samplers want the trace id as a
 * hex string, which would cost an id and a string per request even when the answer is no. Every
 * request is a trace root (Kafka requests carry no trace context), so a uniform draw at the ratio is
 * what {@code traceidratio} would decide; the children of a sampled span are always sampled.
 *
 * <p>A sampled request is rare (1 % by default) and so runs the SDK's code cold: what it builds is kept to the
 * span itself (attribute keys built once, a span's context built once for its children and activations).
 */
public final class BrokerTracing implements Tracer, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(BrokerTracing.class);
    private static final String SCOPE = "io.kaas.broker";
    private static final AttributeKey<String> API = AttributeKey.stringKey("kafka.api");
    private static final AttributeKey<Long> API_VERSION = AttributeKey.longKey("kafka.api_version");
    private static final AttributeKey<String> CLIENT_ID = AttributeKey.stringKey("kafka.client_id");
    private static final AttributeKey<Long> REQUEST_BYTES = AttributeKey.longKey("kafka.request.bytes");

    private final SdkTracerProvider provider;
    private final io.opentelemetry.api.trace.Tracer tracer;
    private final double sampleRatio;

    BrokerTracing(SpanProcessor processor, Resource resource, double sampleRatio) {
        this.provider = SdkTracerProvider.builder().setResource(resource).setSampler(Sampler.alwaysOn())
                .addSpanProcessor(processor).build();
        this.tracer = provider.get(SCOPE);
        this.sampleRatio = sampleRatio;
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
        SpanProcessor batches = BatchSpanProcessor.builder(exporter)
                .setScheduleDelay(Duration.ofMillis(settings.traceExportDelayMs())).build();
        return new BrokerTracing(batches, resource(settings), settings.traceSampleRatio());
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
        Span span = tracer.spanBuilder(api).setNoParent().setSpanKind(SpanKind.SERVER)
                .setAttribute(API, api)
                .setAttribute(API_VERSION, (long) apiVersion)
                .setAttribute(CLIENT_ID, clientId == null ? "" : clientId)
                .setAttribute(REQUEST_BYTES, (long) requestBytes)
                .startSpan();
        return new OtelSpan(span);
    }

    /** Sends what is queued, then stops. */
    @Override
    public void close() {
        provider.shutdown().join(5, TimeUnit.SECONDS);
    }

    /** A sampled span. */
    private final class OtelSpan implements TraceSpan {
        private final Span span;
        /** The span in a context of its own, built when first needed; a race builds an equal one. */
        private Context context;

        OtelSpan(Span span) {
            this.span = span;
        }

        private Context context() {
            Context built = context;
            if (built == null) {
                built = Context.root().with(span);
                context = built;
            }
            return built;
        }

        @Override
        public TraceSpan child(String name) {
            return new OtelSpan(tracer.spanBuilder(name).setParent(context()).startSpan());
        }

        @Override
        public TraceSpan attribute(String key, long value) {
            span.setAttribute(key, value);
            return this;
        }

        @Override
        public TraceSpan attribute(String key, String value) {
            span.setAttribute(key, value);
            return this;
        }

        @Override
        public void fail(Throwable error) {
            span.setStatus(StatusCode.ERROR, String.valueOf(error.getMessage()));
            span.recordException(error);
        }

        @Override
        public TraceSpan.Scope attachContext() {
            io.opentelemetry.context.Scope scope = context().makeCurrent();
            return scope::close;
        }

        @Override
        public void end() {
            span.end();
        }
    }
}
