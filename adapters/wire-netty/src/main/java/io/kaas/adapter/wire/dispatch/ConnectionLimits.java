package io.kaas.adapter.wire.dispatch;

/**
 * How much one connection may have in flight before the broker stops reading from it. Clients
 * pipeline (the Java producer up to 5 requests); beyond these limits TCP pushes back instead of
 * the heap filling up.
 *
 * @param maxInFlightRequests requests read but not yet answered
 * @param maxInFlightBytes    frame bytes of those requests
 */
public record ConnectionLimits(int maxInFlightRequests, long maxInFlightBytes) {
    public static final ConnectionLimits DEFAULT = new ConnectionLimits(32, 64L * 1024 * 1024);
}
