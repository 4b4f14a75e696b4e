package io.kaas.application.metrics;

import java.util.concurrent.atomic.LongAdder;

/** One API's requests: how many, how many failed in their handler, and how long they took to answer. */
public final class RequestStats {
    private final int apiKey;
    private final String api;
    private final LongAdder requests = new LongAdder();
    private final LongAdder errors = new LongAdder();
    private final Histogram latencyNanos = Histogram.latencyNanos();

    RequestStats(int apiKey, String api) {
        this.apiKey = apiKey;
        this.api = api;
    }

    /**
     * @param nanos  from the request's dispatch to its handler's completion
     * @param failed its handler failed (the whole request was answered with an error)
     */
    public void completed(long nanos, boolean failed) {
        requests.increment();
        if (failed) {
            errors.increment();
        }
        latencyNanos.record(nanos);
    }

    public int apiKey() {
        return apiKey;
    }

    /** The API's name, as the wire calls it (e.g. {@code Produce}, as Apache names it in its request metrics). */
    public String api() {
        return api;
    }

    public long requests() {
        return requests.sum();
    }

    public long errors() {
        return errors.sum();
    }

    public Histogram latencyNanos() {
        return latencyNanos;
    }
}
