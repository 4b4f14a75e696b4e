package io.kaas.domain.quota;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.MetricConfig;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.Quota;
import org.apache.kafka.common.metrics.QuotaViolationException;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.common.metrics.stats.Rate;
import org.junit.jupiter.api.Test;

class QuotaSensorTest {
    private static final QuotaWindow WINDOW = QuotaWindow.DEFAULT;

    @Test
    void aFirstBurstIsMeasuredOverTheWholeRingNotTheMillisecondsItTook() {
        QuotaSensor sensor = new QuotaSensor(WINDOW, 0);

        assertThat(sensor.recordAndThrottleMs(1_000, 100, 0)).isZero(); // 1000 B over 10 windows = 100 B/s
        assertThat(sensor.perSecond(0)).isEqualTo(100.0);
    }

    @Test
    void aViolationIsThrottledForTheTimeThatBringsTheRateBackToTheBound() {
        QuotaSensor sensor = new QuotaSensor(WINDOW, 0);

        // 1100 B over 10 s is 110 B/s: (110 - 100) / 100 * 10 s = 1 s
        assertThat(sensor.recordAndThrottleMs(1_100, 100, 0)).isEqualTo(1_000);
        // a second as much at once: 220 B/s, (220 - 100) / 100 * 10 s
        assertThat(sensor.recordAndThrottleMs(1_100, 100, 0)).isEqualTo(12_000);
    }

    @Test
    void usageAgesOutOfTheRing() {
        QuotaSensor sensor = new QuotaSensor(WINDOW, 0);
        sensor.recordAndThrottleMs(5_000, 100, 0);

        assertThat(sensor.perSecond(10_999)).isPositive();
        assertThat(sensor.perSecond(11_000)).isZero();
        assertThat(sensor.recordAndThrottleMs(900, 100, 11_000)).isZero();
    }

    @Test
    void anUnrecordedValueNoLongerCounts() {
        QuotaSensor sensor = new QuotaSensor(WINDOW, 0);
        sensor.recordAndThrottleMs(500, 100, 0);
        assertThat(sensor.recordAndThrottleMs(2_000, 100, 10)).isPositive();

        sensor.unrecord(2_000, 10);

        assertThat(sensor.perSecond(10)).isCloseTo(500 / 10.010, within(1e-9)); // 10 windows and 10 ms
    }

    @Test
    void noBoundNeverThrottles() {
        QuotaSensor sensor = new QuotaSensor(WINDOW, 0);

        assertThat(sensor.recordAndThrottleMs(1e12, QuotaLimits.UNLIMITED, 0)).isZero();
    }

    /** The throttle earned is what Apache's Sensor, Rate and ClientQuotaManager.throttleTime compute, step by step. */
    @Test
    void matchesApacheOnARandomWorkload() {
        Random random = new Random(42);
        for (QuotaWindow window : new QuotaWindow[] {WINDOW, new QuotaWindow(3, 250), new QuotaWindow(1, 1_000)}) {
            long now = 1_000_000;
            double bound = 10_000;
            try (Metrics metrics = new Metrics()) {
                MetricConfig config = new MetricConfig().samples(window.samples())
                        .timeWindow(window.sampleMs(), TimeUnit.MILLISECONDS).quota(Quota.upperBound(bound));
                Sensor apache = metrics.sensor("produce", config);
                MetricName name = metrics.metricName("byte-rate", "Produce");
                Rate rate = new Rate();
                apache.add(name, rate);
                QuotaSensor ours = new QuotaSensor(window, now);
                for (int step = 0; step < 2_000; step++) {
                    now += random.nextInt(random.nextBoolean() ? 50 : 3_000);
                    double value = random.nextInt(40_000);
                    int expected;
                    try {
                        apache.record(value, now);
                        expected = 0;
                    } catch (QuotaViolationException e) {
                        expected = (int) Math.round((e.value() - e.bound()) / e.bound() * rate.windowSize(config, now));
                    }
                    assertThat(ours.recordAndThrottleMs(value, bound, now)).as("step %d", step).isEqualTo(expected);
                    assertThat(ours.perSecond(now)).isCloseTo(rate.measure(config, now), within(1e-6));
                }
            }
        }
    }

    /**
     * A client at ten times its quota that waits out each throttle is held to the quota: over a minute of sends its
     * rate is within 10 % of the bound.
     */
    @Test
    void aClientThatHonoursTheThrottleIsHeldToTheQuota() {
        double bound = 100_000;
        QuotaSensor sensor = new QuotaSensor(WINDOW, 0);
        long now = 0;
        long sent = 0;
        while (now < 60_000) {
            int batch = 10_000; // every 10 ms unthrottled: 1 MB/s
            sent += batch;
            int throttle = sensor.recordAndThrottleMs(batch, bound, now);
            now += Math.max(10, throttle);
        }

        assertThat(sent / (now / 1_000d)).isCloseTo(bound, within(bound * 0.10));
    }
}
