package io.kaas.domain.cluster;

/**
 * One registered broker in an assignment.
 *
 * @param lastSeenMs when the controller last saw it alive; kept, not refreshed, while it is dead
 */
public record BrokerRow(int id, BrokerHealth health, long lastSeenMs) {
    public boolean alive() {
        return health == BrokerHealth.ALIVE;
    }
}
