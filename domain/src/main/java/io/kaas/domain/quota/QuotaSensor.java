package io.kaas.domain.quota;

/**
 * One client's (or one shared entity's) usage of one quota type, and the throttle a violation earns, as Apache's
 * quota {@code Sensor} with its {@code Rate} and {@code ClientQuotaManager.throttleTime}: every value is recorded,
 * then the rate is compared with the bound; above it, the throttle is the time that brings the rate back to the
 * bound if nothing more came: {@code (rate - bound) / bound * window}. Not thread-safe.
 */
public final class QuotaSensor {
    private final WindowedRate rate;
    private long lastRecordMs;

    public QuotaSensor(QuotaWindow window, long nowMs) {
        this.rate = new WindowedRate(window);
        this.lastRecordMs = nowMs;
    }

    /**
     * Records {@code value} at {@code nowMs}.
     *
     * @param bound the quota per second; {@code Double.POSITIVE_INFINITY} for none
     * @return how long to throttle the client, in milliseconds; 0 within the quota
     */
    public int recordAndThrottleMs(double value, double bound, long nowMs) {
        lastRecordMs = nowMs;
        rate.record(value, nowMs);
        double measured = rate.perSecond(nowMs);
        if (measured <= bound) {
            return 0;
        }
        double throttle = (measured - bound) / bound * rate.windowMs(nowMs);
        return (int) Math.min(Math.round(throttle), Integer.MAX_VALUE);
    }

    /**
     * Takes back a value recorded at about {@code nowMs}: a throttled fetch answers nothing, so what it would
     * have returned must not count (Apache's {@code unrecordQuotaSensor}).
     */
    public void unrecord(double value, long nowMs) {
        rate.record(-value, nowMs);
    }

    /** The rate per second at {@code nowMs}. */
    public double perSecond(long nowMs) {
        return rate.perSecond(nowMs);
    }

    /** When a value was last recorded: a sensor idle long enough can be dropped. */
    public long lastRecordMs() {
        return lastRecordMs;
    }
}
