package io.kaas.domain.cluster;

/**
 * A registered broker's state in an assignment. {@link #DEAD} is not "gone": a dead row stays in the
 * registered set (the coordinator divisor) until the broker is deregistered.
 */
public enum BrokerHealth {
    /** Heartbeating, healthy, not shutting down: may lead partitions and coordinate groups. */
    ALIVE,
    /** Announced its shutdown: serves until it stops, leads nothing in the next assignment. */
    DRAINING,
    /** Registered but not heartbeating, or reporting itself unhealthy: fenced. */
    DEAD
}
