package io.kaas.bench;

import io.opentelemetry.exporter.internal.otlp.traces.SpanReusableDataMarshaler;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.common.export.MemoryMode;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Collection;
import java.util.concurrent.atomic.LongAdder;

/**
 * The OTLP/HTTP span exporter without the HTTP: each batch the broker's export queue hands over is
 * serialized by the marshaler {@code OtlpHttpSpanExporter} uses (its default reusable-data mode) to the
 * protobuf bytes an export request would carry, which are then dropped. Counts the spans, the bytes and the
 * CPU time the exporting thread spent, so that the cost off the request's thread is known too.
 */
final class OtlpBytesExporter implements SpanExporter {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private final LongAdder spans = new LongAdder();
    private final LongAdder bytes = new LongAdder();
    private final LongAdder cpuNanos = new LongAdder();
    private final SpanReusableDataMarshaler marshaler = new SpanReusableDataMarshaler(MemoryMode.REUSABLE_DATA,
            (request, count) -> {
                CountingSink sink = new CountingSink();
                try {
                    request.writeBinaryTo(sink);
                } catch (IOException e) {
                    throw new UncheckedIOException(e); // the sink does not fail
                }
                bytes.add(sink.count);
                return CompletableResultCode.ofSuccess();
            });

    @Override
    public CompletableResultCode export(Collection<SpanData> batch) {
        long started = THREADS.getCurrentThreadCpuTime();
        CompletableResultCode result = marshaler.export(batch);
        cpuNanos.add(THREADS.getCurrentThreadCpuTime() - started);
        spans.add(batch.size());
        return result;
    }

    long spans() {
        return spans.sum();
    }

    long bytes() {
        return bytes.sum();
    }

    long cpuNanos() {
        return cpuNanos.sum();
    }

    @Override
    public CompletableResultCode flush() {
        return CompletableResultCode.ofSuccess();
    }

    @Override
    public CompletableResultCode shutdown() {
        return CompletableResultCode.ofSuccess();
    }

    private static final class CountingSink extends OutputStream {
        long count;

        @Override
        public void write(int b) {
            count++;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            count += len;
        }
    }
}
