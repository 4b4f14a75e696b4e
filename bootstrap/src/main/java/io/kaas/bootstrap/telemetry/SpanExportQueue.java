package io.kaas.bootstrap.telemetry;

import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ended spans on their way to the exporter, batched as the SDK's {@code BatchSpanProcessor} batches them (up
 * to 2,048 queued, a full queue drops the newest, batches of up to 512 sent every schedule delay or as soon
 * as one is full) but taking {@link RecordedSpan}s: the request thread only queues one, and this queue's
 * thread turns them into {@code SpanData} ({@link RecordedSpanData}) and exports them.
 */
final class SpanExportQueue implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SpanExportQueue.class);
    static final int CAPACITY = 2_048;
    static final int BATCH = 512;
    private static final long EXPORT_TIMEOUT_SECONDS = 30;
    /** How long stopping waits for the last spans to be sent: the SDK's provider shutdown waited as long. */
    private static final long CLOSE_TIMEOUT_SECONDS = 5;

    private final ArrayBlockingQueue<RecordedSpan> queue = new ArrayBlockingQueue<>(CAPACITY);
    /** Spans queued and not yet taken: counted apart so that queueing one takes the queue's lock only once. */
    private final AtomicInteger queued = new AtomicInteger();
    private final SpanExporter exporter;
    private final Resource resource;
    private final long delayNanos;
    private final Thread worker;
    private volatile boolean running = true;

    SpanExportQueue(SpanExporter exporter, Resource resource, long delayMs) {
        this.exporter = exporter;
        this.resource = resource;
        this.delayNanos = TimeUnit.MILLISECONDS.toNanos(delayMs);
        this.worker = new Thread(this::run, "kaas-span-export");
        worker.setDaemon(true);
        worker.start();
    }

    /** Queues an ended span; drops it if the queue is full (the exporter is behind). */
    void add(RecordedSpan span) {
        if (!queue.offer(span)) {
            return;
        }
        if (queued.incrementAndGet() == BATCH) {
            LockSupport.unpark(worker); // a full batch goes at once, as the SDK's would
        }
    }

    private void run() {
        while (running) {
            LockSupport.parkNanos(this, delayNanos); // woken early by a full batch or by close
            exportQueued();
        }
        exportQueued();
    }

    private void exportQueued() {
        List<RecordedSpan> taken = new ArrayList<>(BATCH);
        while (queue.drainTo(taken, BATCH) > 0) {
            queued.addAndGet(-taken.size());
            List<SpanData> batch = new ArrayList<>(taken.size());
            for (RecordedSpan span : taken) {
                batch.add(new RecordedSpanData(span, resource));
            }
            taken.clear();
            try {
                exporter.export(batch).join(EXPORT_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            } catch (RuntimeException e) {
                LOG.warn("exporting {} spans failed", batch.size(), e);
            }
        }
    }

    /** Sends what is queued (waiting at most 5 s: a broker stopping does not wait on a collector), then shuts the exporter down. */
    @Override
    public void close() {
        running = false;
        LockSupport.unpark(worker);
        try {
            worker.join(TimeUnit.SECONDS.toMillis(CLOSE_TIMEOUT_SECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        exporter.shutdown().join(CLOSE_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }
}
