package io.kaas.domain.quota;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Apache's TokenBucket: starts full at the window's worth, refills at the bound, goes into debt. */
class TokenBucketTest {
    private static final QuotaWindow WINDOW = new QuotaWindow(5, 1_000);

    @Test
    void aNewBucketHoldsTheWholeWindowsWorthAndRefillsNoFurther() {
        TokenBucket bucket = new TokenBucket(WINDOW);

        assertThat(bucket.tokens(2.0, 1_000_000)).isEqualTo(10.0);
        assertThat(bucket.tokens(2.0, 1_060_000)).as("capped at the burst").isEqualTo(10.0);
    }

    @Test
    void takingMoreThanItHoldsIsADebtPaidBackAtTheBound() {
        TokenBucket bucket = new TokenBucket(WINDOW);
        bucket.record(13, 2.0, 0);

        assertThat(bucket.tokens(2.0, 0)).isEqualTo(-3.0);
        assertThat(TokenBucket.throttleMs(-3.0, 2.0)).isEqualTo(1_500);
        assertThat(bucket.tokens(2.0, 1_000)).isEqualTo(-1.0);
        assertThat(bucket.tokens(2.0, 2_000)).isEqualTo(1.0);
        assertThat(TokenBucket.throttleMs(1.0, 2.0)).isZero();
        assertThat(bucket.lastUpdateMs()).isEqualTo(2_000);
    }

    @Test
    void aLowerBoundShrinksTheBurst() {
        TokenBucket bucket = new TokenBucket(WINDOW);
        bucket.tokens(10.0, 0);

        assertThat(bucket.tokens(1.0, 0)).as("capped at the new burst at once").isEqualTo(5.0);
    }
}
