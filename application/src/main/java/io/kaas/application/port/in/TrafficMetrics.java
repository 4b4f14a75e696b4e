package io.kaas.application.port.in;

/**
 * What the wire reports about its traffic: each request's API, latency and outcome, and each
 * listener's connections. Implementations record without locks or allocation (they run on the
 * event loops, once per request).
 */
public interface TrafficMetrics {
    /** Records nothing: for wiring without an exporter (tests, tools). */
    TrafficMetrics NONE = new TrafficMetrics() {
        @Override
        public long nanoTime() {
            return 0L;
        }

        @Override
        public void requestCompleted(int apiKey, String api, long nanos, boolean failed) {
        }

        @Override
        public void connectionOpened(String listener) {
        }

        @Override
        public void connectionClosed(String listener) {
        }

        @Override
        public void connectionLimited(String listener, String limit, boolean closed) {
        }
    };

    /** Now, on the monotonic clock latencies are measured with. */
    long nanoTime();

    /**
     * @param api    the API's name (e.g. {@code Produce}, as Apache names it in its request metrics)
     * @param nanos  from the request's dispatch to its handler's completion
     * @param failed its handler failed: the whole request was answered with an error
     */
    void requestCompleted(int apiKey, String api, long nanos, boolean failed);

    void connectionOpened(String listener);

    void connectionClosed(String listener);

    /**
     * A connection met a connection limit at accept.
     *
     * @param limit  the config, as Apache names it ({@code max.connections.per.ip}, {@code connection_creation_rate},
     *               {@code max.connections}, {@code max.connection.creation.rate})
     * @param closed true when the connection was closed unserved, false when the listener held it back (stopped
     *               accepting) until the limit allowed it
     */
    void connectionLimited(String listener, String limit, boolean closed);
}
