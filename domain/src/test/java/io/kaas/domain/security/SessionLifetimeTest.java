package io.kaas.domain.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class SessionLifetimeTest {
    private static final long NOW = 1_000_000;

    @Test
    void withoutABoundOrAnExpiringCredentialTheSessionNeverExpires() {
        assertThat(SessionLifetime.of(0, OptionalLong.empty(), NOW)).isEmpty();
    }

    @Test
    void theBrokersBoundAppliesToCredentialsThatDoNotExpire() {
        assertThat(SessionLifetime.of(30_000, OptionalLong.empty(), NOW)).hasValue(30_000);
    }

    @Test
    void aTokenBoundsTheSessionByItsRemainingLifetime() {
        assertThat(SessionLifetime.of(0, OptionalLong.of(NOW + 5_000), NOW)).hasValue(5_000);
        assertThat(SessionLifetime.of(30_000, OptionalLong.of(NOW + 5_000), NOW)).hasValue(5_000);
        assertThat(SessionLifetime.of(3_000, OptionalLong.of(NOW + 5_000), NOW)).hasValue(3_000);
        assertThat(SessionLifetime.of(3_000, OptionalLong.of(NOW - 1), NOW)).hasValue(0);
    }
}
