package io.kaas.bootstrap.telemetry;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.sdk.common.InstrumentationLibraryInfo;
import io.opentelemetry.sdk.common.InstrumentationScopeInfo;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.data.EventData;
import io.opentelemetry.sdk.trace.data.LinkData;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.data.StatusData;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;

/**
 * An ended {@link RecordedSpan} as the SDK's exporters take it, built on the export thread: what the SDK's own
 * span would have exported (the request's attributes, a failure as an error status and an {@code exception}
 * event), from the fields the request thread recorded.
 */
final class RecordedSpanData implements SpanData {
    private static final String SCOPE = "io.kaas.broker";
    private static final InstrumentationScopeInfo SCOPE_INFO = InstrumentationScopeInfo.create(SCOPE);
    @SuppressWarnings("deprecation") // an abstract method of SpanData still
    private static final InstrumentationLibraryInfo LIBRARY_INFO = InstrumentationLibraryInfo.create(SCOPE, null);
    private static final AttributeKey<String> API = AttributeKey.stringKey("kafka.api");
    private static final AttributeKey<Long> API_VERSION = AttributeKey.longKey("kafka.api_version");
    private static final AttributeKey<String> CLIENT_ID = AttributeKey.stringKey("kafka.client_id");
    private static final AttributeKey<Long> REQUEST_BYTES = AttributeKey.longKey("kafka.request.bytes");
    private static final AttributeKey<String> EXCEPTION_TYPE = AttributeKey.stringKey("exception.type");
    private static final AttributeKey<String> EXCEPTION_MESSAGE = AttributeKey.stringKey("exception.message");
    private static final AttributeKey<String> EXCEPTION_STACKTRACE = AttributeKey.stringKey("exception.stacktrace");

    private final RecordedSpan span;
    private final Resource resource;
    private final SpanContext context;
    private final SpanContext parent;
    private final Attributes attributes;
    private final List<EventData> events;
    private final StatusData status;

    RecordedSpanData(RecordedSpan span, Resource resource) {
        this.span = span;
        this.resource = resource;
        this.context = span.spanContext();
        this.parent = span.parentSpanId == 0 ? SpanContext.getInvalid() : SpanContext.create(context.getTraceId(),
                RecordedSpan.hex(span.parentSpanId), TraceFlags.getSampled(), TraceState.getDefault());
        this.attributes = attributes(span);
        Throwable failure = span.failure;
        this.events = failure == null ? List.of() : List.of(exceptionEvent(failure, span.failedEpochNanos));
        this.status = failure == null ? StatusData.unset()
                : StatusData.create(StatusCode.ERROR, String.valueOf(failure.getMessage()));
    }

    private static Attributes attributes(RecordedSpan span) {
        AttributesBuilder builder = Attributes.builder();
        if (span.api != null) {
            builder.put(API, span.api).put(API_VERSION, span.apiVersion).put(CLIENT_ID, span.clientId)
                    .put(REQUEST_BYTES, span.requestBytes);
        }
        for (int i = 0; i < span.attributeCount; i++) {
            if (span.strings[i] != null) {
                builder.put(span.keys[i], span.strings[i]);
            } else {
                builder.put(span.keys[i], span.longs[i]);
            }
        }
        return builder.build();
    }

    /** The event the SDK's {@code recordException} adds, with the semantic conventions' attributes. */
    private static EventData exceptionEvent(Throwable failure, long epochNanos) {
        StringWriter trace = new StringWriter();
        failure.printStackTrace(new PrintWriter(trace));
        AttributesBuilder attributes = Attributes.builder().put(EXCEPTION_TYPE, failure.getClass().getCanonicalName())
                .put(EXCEPTION_STACKTRACE, trace.toString());
        if (failure.getMessage() != null) {
            attributes.put(EXCEPTION_MESSAGE, failure.getMessage());
        }
        return EventData.create(epochNanos, "exception", attributes.build());
    }

    @Override
    public String getName() {
        return span.name;
    }

    @Override
    public SpanKind getKind() {
        return span.api != null ? SpanKind.SERVER : SpanKind.INTERNAL;
    }

    @Override
    public SpanContext getSpanContext() {
        return context;
    }

    @Override
    public SpanContext getParentSpanContext() {
        return parent;
    }

    @Override
    public StatusData getStatus() {
        return status;
    }

    @Override
    public long getStartEpochNanos() {
        return span.startEpochNanos;
    }

    @Override
    public Attributes getAttributes() {
        return attributes;
    }

    @Override
    public List<EventData> getEvents() {
        return events;
    }

    @Override
    public List<LinkData> getLinks() {
        return List.of();
    }

    @Override
    public long getEndEpochNanos() {
        return span.endEpochNanos;
    }

    @Override
    public boolean hasEnded() {
        return true;
    }

    @Override
    public int getTotalRecordedEvents() {
        return events.size();
    }

    @Override
    public int getTotalRecordedLinks() {
        return 0;
    }

    @Override
    public int getTotalAttributeCount() {
        return attributes.size();
    }

    @Override
    @SuppressWarnings("deprecation")
    public InstrumentationLibraryInfo getInstrumentationLibraryInfo() {
        return LIBRARY_INFO;
    }

    @Override
    public InstrumentationScopeInfo getInstrumentationScopeInfo() {
        return SCOPE_INFO;
    }

    @Override
    public Resource getResource() {
        return resource;
    }
}
