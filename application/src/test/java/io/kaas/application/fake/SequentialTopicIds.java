package io.kaas.application.fake;

import java.util.UUID;
import java.util.function.Supplier;

/**
 * Predictable topic ids for tests: {@code 00000000-0000-0001-0000-00000000000n} for n = 1, 2, ...
 * Every id is distinct and usable (not reserved, no leading '-' in its base64 form), so a
 * service that retries until it finds an unused id never spins.
 */
public final class SequentialTopicIds implements Supplier<UUID> {
    private long next = 1;

    /** The id the n-th call returns (1-based). */
    public static UUID nth(long n) {
        return new UUID(1L, n);
    }

    @Override
    public synchronized UUID get() {
        return nth(next++);
    }
}
