package io.kaas.application.quota;

import io.kaas.application.port.in.MutationQuota;
import io.kaas.application.port.out.Clock;
import io.kaas.domain.quota.QuotaLimits;
import io.kaas.domain.quota.QuotaWindow;
import io.kaas.domain.quota.SensorKey;
import io.kaas.domain.quota.TokenBucket;
import java.util.function.IntConsumer;
import java.util.function.Supplier;

/**
 * {@code controller_mutation_rate} (KIP-599), as Apache's ControllerMutationQuotaManager: each client's partition
 * mutations are taken from a token bucket shared as its quota entity decides (the precedence of every client quota),
 * refilled at the bound per second up to the quota window's worth. A strict request is refused a topic while the
 * bucket is in debt (and is then throttled until the debt is paid), but may take it into debt; a permissive one is
 * never refused and is throttled once in debt.
 */
public final class ControllerMutationQuotas {
    private final Supplier<QuotaLimits> limits;
    private final Clock clock;
    private final IntConsumer throttled;
    private final QuotaSensors<SensorKey, TokenBucket> buckets;

    /**
     * @param window    {@code controller.quota.window.num} and {@code .size.seconds}: the burst is the whole window's
     * @param throttled told each throttle a violation earns, in milliseconds
     */
    public ControllerMutationQuotas(Supplier<QuotaLimits> limits, QuotaWindow window, Clock clock,
                                    IntConsumer throttled) {
        this.limits = limits;
        this.clock = clock;
        this.throttled = throttled;
        this.buckets = new QuotaSensors<>(clock, now -> new TokenBucket(window), TokenBucket::lastUpdateMs);
    }

    /** The quota one request of {@code user} with {@code clientId} charges; unbounded while none is configured. */
    public MutationQuota forRequest(String user, String clientId, boolean strict) {
        QuotaLimits current = limits.get();
        if (current.isEmpty()) {
            return MutationQuota.UNBOUNDED;
        }
        SensorKey key = current.sensorKey(user, clientId == null ? "" : clientId);
        return new RequestQuota(current, key, strict);
    }

    /** One request's charges and the throttle its last violation earned. */
    private final class RequestQuota implements MutationQuota {
        private final QuotaLimits current;
        private final SensorKey key;
        private final boolean strict;
        private long throttleMs;
        private long violatedAtMs;

        RequestQuota(QuotaLimits current, SensorKey key, boolean strict) {
            this.current = current;
            this.key = key;
            this.strict = strict;
        }

        @Override
        public synchronized boolean tryCharge(int partitions) {
            return buckets.apply(key, current, current::bound, (bucket, bound, now) -> {
                if (Double.isInfinite(bound)) {
                    return true; // no quota for this client
                }
                if (strict) {
                    double tokens = bucket.tokens(bound, now);
                    if (tokens < 0) {
                        violated(tokens, bound, now);
                        return false;
                    }
                    bucket.record(partitions, bound, now);
                    return true;
                }
                bucket.record(partitions, bound, now);
                double tokens = bucket.tokens(bound, now);
                if (tokens < 0) {
                    violated(tokens, bound, now);
                }
                return true;
            });
        }

        private void violated(double tokens, double bound, long now) {
            throttleMs = TokenBucket.throttleMs(tokens, bound);
            violatedAtMs = now;
            if (throttleMs > 0) {
                throttled.accept((int) Math.min(throttleMs, Integer.MAX_VALUE));
            }
        }

        @Override
        public synchronized int throttleTimeMs() {
            long left = throttleMs - (clock.nowMs() - violatedAtMs);
            return (int) Math.max(0, Math.min(left, Integer.MAX_VALUE));
        }
    }
}
