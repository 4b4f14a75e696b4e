package io.kaas.bootstrap.telemetry;

import io.kaas.application.port.in.TraceSpan;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import java.util.Arrays;

/**
 * A sampled span as the request thread records it: ids as longs, times as nanos, attributes as plain
 * fields, nothing of the OpenTelemetry SDK. A sampled request is rare (1 % by default), so whatever it
 * runs is cold; this keeps that to a few small methods and one object per span. Ending it queues it for
 * the export thread, which turns it into the SDK's {@code SpanData} ({@link RecordedSpanData}).
 *
 * <p>Attributes set after {@link #end()} are ignored, as the SDK ignores them; the export thread reads a span
 * only after it ended, through the queue that hands it over.
 */
public final class RecordedSpan implements TraceSpan {
    private final BrokerTracing tracing;
    final long traceIdHigh;
    final long traceIdLow;
    final long spanId;
    /** 0 for a request's span: a trace root. */
    final long parentSpanId;
    final String name;
    final long startEpochNanos;
    /** The request's four attributes, {@code api} null for a step's span (which has none of them). */
    final String api;
    final int apiVersion;
    final String clientId;
    final int requestBytes;
    /** The attributes the use cases add: {@code keys[i]} has {@code strings[i]}, or {@code longs[i]} if that is null. */
    String[] keys;
    String[] strings;
    long[] longs;
    int attributeCount;
    Throwable failure;
    long failedEpochNanos;
    long endEpochNanos;
    /** Guarded by this, as every field a use case sets: a span may be annotated and ended on different threads. */
    private boolean ended;

    private RecordedSpan(BrokerTracing tracing, long traceIdHigh, long traceIdLow, long parentSpanId, String name,
                         String api, int apiVersion, String clientId, int requestBytes) {
        this.tracing = tracing;
        this.traceIdHigh = traceIdHigh;
        this.traceIdLow = traceIdLow;
        this.spanId = tracing.newId();
        this.parentSpanId = parentSpanId;
        this.name = name;
        this.api = api;
        this.apiVersion = apiVersion;
        this.clientId = clientId;
        this.requestBytes = requestBytes;
        this.startEpochNanos = tracing.epochNanos();
    }

    /** The span of a request: the root of a trace of its own. */
    static RecordedSpan request(BrokerTracing tracing, String api, int apiVersion, String clientId, int requestBytes) {
        return new RecordedSpan(tracing, tracing.newId(), tracing.newId(), 0, api, api, apiVersion,
                clientId == null ? "" : clientId, requestBytes);
    }

    @Override
    public TraceSpan child(String stepName) {
        return new RecordedSpan(tracing, traceIdHigh, traceIdLow, spanId, stepName, null, 0, null, 0);
    }

    @Override
    public TraceSpan attribute(String key, long value) {
        return put(key, null, value);
    }

    @Override
    public TraceSpan attribute(String key, String value) {
        return put(key, value == null ? "" : value, 0);
    }

    /** Sets {@code key} (again, if it has a value: the last one counts), string or long. */
    private synchronized TraceSpan put(String key, String string, long number) {
        if (ended) {
            return this;
        }
        int index = 0;
        while (index < attributeCount && !keys[index].equals(key)) {
            index++;
        }
        if (index == attributeCount) {
            if (keys == null) {
                keys = new String[4];
                strings = new String[4];
                longs = new long[4];
            } else if (index == keys.length) {
                keys = Arrays.copyOf(keys, index * 2);
                strings = Arrays.copyOf(strings, index * 2);
                longs = Arrays.copyOf(longs, index * 2);
            }
            keys[index] = key;
            attributeCount++;
        }
        strings[index] = string;
        longs[index] = number;
        return this;
    }

    @Override
    public synchronized void fail(Throwable error) {
        if (!ended) {
            failure = error;
            failedEpochNanos = tracing.epochNanos();
        }
    }

    @Override
    public void end() {
        long now = tracing.epochNanos();
        synchronized (this) {
            if (ended) {
                return;
            }
            ended = true;
            endEpochNanos = now;
        }
        tracing.ended(this);
    }

    /** This span's ids as OpenTelemetry writes them (W3C hex); built when asked, for a log line or an export. */
    SpanContext spanContext() {
        return SpanContext.create(hex(traceIdHigh) + hex(traceIdLow), hex(spanId), TraceFlags.getSampled(),
                TraceState.getDefault());
    }

    /** {@code id} as 16 lower-case hex digits, the W3C form of a span id and of either half of a trace id. */
    static String hex(long id) {
        char[] digits = new char[16];
        for (int i = 15; i >= 0; i--, id >>>= 4) {
            digits[i] = Character.forDigit((int) (id & 0xF), 16);
        }
        return new String(digits);
    }

    /**
     * The ids log lines carry: those of the thread's current {@link TraceSpan} if it is one of these, else those of
     * OpenTelemetry's current span (invalid outside one).
     */
    public static SpanContext currentContext() {
        return TraceSpan.current() instanceof RecordedSpan recorded ? recorded.spanContext()
                : Span.current().getSpanContext();
    }
}
