package io.kaas.adapter.heartbeat;

import io.kaas.adapter.heartbeat.v1.BrokerBeat;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

/** What this broker says in each beat: its id and the bits as they are right now. Thread-safe. */
final class BeatSource {
    private final int brokerId;
    private final BooleanSupplier healthy;
    private final BooleanSupplier draining;
    private final AtomicLong sequence = new AtomicLong();

    BeatSource(int brokerId, BooleanSupplier healthy, BooleanSupplier draining) {
        this.brokerId = brokerId;
        this.healthy = healthy;
        this.draining = draining;
    }

    int brokerId() {
        return brokerId;
    }

    /** The next beat; reads both suppliers. */
    BrokerBeat next() {
        return BrokerBeat.newBuilder()
                .setBrokerId(brokerId)
                .setHealthy(healthy.getAsBoolean())
                .setDraining(draining.getAsBoolean())
                .setSequence(sequence.incrementAndGet())
                .build();
    }
}
