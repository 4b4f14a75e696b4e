package io.kaas.adapter.k8s;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class RestartBackoffTest {

    @Test
    void doublesFromOneSecondUpToThirty() {
        RestartBackoff backoff = new RestartBackoff(Duration.ofSeconds(1), Duration.ofSeconds(30));

        assertThat(LongStream.generate(backoff::nextDelayMs).limit(8).toArray())
                .containsExactly(1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000);
    }

    @Test
    void resetStartsAgainFromTheFirstDelay() {
        RestartBackoff backoff = new RestartBackoff(Duration.ofSeconds(1), Duration.ofSeconds(30));
        backoff.nextDelayMs();
        backoff.nextDelayMs();

        backoff.reset();

        assertThat(backoff.nextDelayMs()).isEqualTo(1_000);
        assertThat(backoff.nextDelayMs()).isEqualTo(2_000);
    }

    @Test
    void rejectsAnEmptyOrInvertedRange() {
        assertThatThrownBy(() -> new RestartBackoff(Duration.ZERO, Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new RestartBackoff(Duration.ofSeconds(2), Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
