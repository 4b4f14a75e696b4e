package io.kaas.application.metrics;

/**
 * The stages of one acks=-1 append, each a latency histogram (nanoseconds): waiting for its turn on
 * the I/O threads after the request was decoded, appending (validation, producer state, the page-cache
 * write), and waiting for the fsync that covers it. The rest of a request's
 * {@linkplain RequestStats#latencyNanos() duration} is the answer: the hop back to the connection's
 * event loop. Recording allocates nothing.
 */
public final class ProduceStages {
    private final Histogram queued = Histogram.latencyNanos();
    private final Histogram appending = Histogram.latencyNanos();
    private final Histogram awaitingFsync = Histogram.latencyNanos();

    /** From the request's arrival at the produce service to its append's start on an I/O thread. */
    public Histogram queued() {
        return queued;
    }

    /** The append itself. */
    public Histogram appending() {
        return appending;
    }

    /** From the append's end to the completion of the fsync that covers it. */
    public Histogram awaitingFsync() {
        return awaitingFsync;
    }
}
