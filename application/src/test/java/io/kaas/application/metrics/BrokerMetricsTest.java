package io.kaas.application.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class BrokerMetricsTest {
    @Test
    void aHistogramBucketCountsValuesUpToItsBoundInclusive() {
        Histogram histogram = new Histogram(10, 100);
        histogram.record(10);
        histogram.record(11);
        histogram.record(100);
        histogram.record(101);
        histogram.record(-5);

        Histogram.Snapshot snapshot = histogram.snapshot();
        assertThat(snapshot.counts()).containsExactly(2, 2, 1);
        assertThat(snapshot.count()).isEqualTo(5);
        assertThat(snapshot.sum()).isEqualTo(10 + 11 + 100 + 101 - 5);
        assertThatThrownBy(() -> new Histogram(5, 5)).hasMessageContaining("ascend");
    }

    @Test
    void requestsAreCountedPerApiWithTheirLatencyOnTheInjectedClock() {
        AtomicLong now = new AtomicLong(1_000);
        BrokerMetrics metrics = new BrokerMetrics(now::get);
        long started = metrics.nanoTime();
        now.addAndGet(3_000_000);
        metrics.requestCompleted(0, "Produce", metrics.nanoTime() - started, false);
        metrics.requestCompleted(0, "Produce", 1, true);
        metrics.requestCompleted(1, "Fetch", 1, false);

        assertThat(metrics.requests()).extracting(RequestStats::api).containsExactly("Produce", "Fetch");
        RequestStats produce = metrics.requests().get(0);
        assertThat(produce.requests()).isEqualTo(2);
        assertThat(produce.errors()).isEqualTo(1);
        assertThat(produce.latencyNanos().snapshot().sum()).isEqualTo(3_000_001);
    }

    @Test
    void aDeletedTopicsCountersGoAway() {
        BrokerMetrics metrics = BrokerMetrics.unobserved();
        metrics.topic("orders").appended(100, 4);
        metrics.topic("orders").sent(60);
        assertThat(metrics.topics().get("orders").recordsIn()).isEqualTo(4);
        assertThat(metrics.topics().get("orders").bytesOut()).isEqualTo(60);

        metrics.forgetTopic("orders");
        assertThat(metrics.topics()).isEmpty();
    }

    @Test
    void connectionsAreCountedPerListener() {
        BrokerMetrics metrics = BrokerMetrics.unobserved();
        metrics.connectionOpened("plain");
        metrics.connectionOpened("plain");
        metrics.connectionClosed("plain");

        assertThat(metrics.listeners().get("plain").open()).isEqualTo(1);
        assertThat(metrics.listeners().get("plain").accepted()).isEqualTo(2);
    }
}
