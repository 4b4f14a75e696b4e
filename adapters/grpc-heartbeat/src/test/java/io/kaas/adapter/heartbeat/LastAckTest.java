package io.kaas.adapter.heartbeat;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class LastAckTest {
    /** Starts negative: System.nanoTime may be any value, and only differences count. */
    private final AtomicLong nanos = new AtomicLong(-5_000_000_000L);
    private final LastAck lastAck = new LastAck(nanos::get);

    @Test
    void nothingIsAcknowledgedBeforeTheFirstAck() {
        assertThat(lastAck.within(Long.MAX_VALUE / 2_000_000)).isFalse();
    }

    @Test
    void anAckCountsForExactlyTheWindow() {
        lastAck.record();
        advanceMs(3_000);
        assertThat(lastAck.within(3_000)).isTrue();
        advanceMs(1);
        assertThat(lastAck.within(3_000)).isFalse();
        assertThat(lastAck.within(3_001)).isTrue();
    }

    @Test
    void aNewAckRestartsTheWindow() {
        lastAck.record();
        advanceMs(5_000);
        lastAck.record();
        advanceMs(100);
        assertThat(lastAck.within(1_000)).isTrue();
    }

    private void advanceMs(long ms) {
        nanos.addAndGet(TimeUnit.MILLISECONDS.toNanos(ms));
    }
}
