package io.kaas.adapter.heartbeat;

import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * When the controller last acknowledged a beat, on a monotonic clock: a wall-clock step (NTP, a VM
 * resume) must neither fake nor hide the broker's contact with the controller. Thread-safe.
 */
final class LastAck {
    private final LongSupplier nanoTime;
    private volatile OptionalLong atNanos = OptionalLong.empty();

    /** @param nanoTime a monotonic clock in nanoseconds ({@code System::nanoTime}, or a test's) */
    LastAck(LongSupplier nanoTime) {
        this.nanoTime = nanoTime;
    }

    void record() {
        atNanos = OptionalLong.of(nanoTime.getAsLong());
    }

    boolean within(long withinMs) {
        OptionalLong at = atNanos;
        return at.isPresent() && nanoTime.getAsLong() - at.getAsLong() <= TimeUnit.MILLISECONDS.toNanos(withinMs);
    }
}
