package io.kaas.domain.cluster;

/**
 * The last heartbeat the controller has from a broker.
 *
 * @param healthy    the broker's own liveness tick (its main loop runs, its storage answers)
 * @param draining   it is shutting down: move its partitions and groups away
 * @param receivedMs when it arrived, on the controller's clock
 */
public record Heartbeat(int brokerId, boolean healthy, boolean draining, long receivedMs) {
}
