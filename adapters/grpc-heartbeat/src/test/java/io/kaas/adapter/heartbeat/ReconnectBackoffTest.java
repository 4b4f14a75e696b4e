package io.kaas.adapter.heartbeat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class ReconnectBackoffTest {
    private final ReconnectBackoff backoff = new ReconnectBackoff(Duration.ofMillis(200), Duration.ofSeconds(2));

    @Test
    void doublesUpToTheCapAndStaysThere() {
        assertThat(LongStream.generate(backoff::nextDelayMs).limit(7).toArray())
                .containsExactly(200, 400, 800, 1600, 2000, 2000, 2000);
    }

    @Test
    void startsOverAfterAReset() {
        backoff.nextDelayMs();
        backoff.nextDelayMs();
        backoff.reset();
        assertThat(backoff.nextDelayMs()).isEqualTo(200);
    }

    @Test
    void refusesACapBelowTheStartOrANonPositiveStart() {
        assertThatThrownBy(() -> new ReconnectBackoff(Duration.ofSeconds(2), Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ReconnectBackoff(Duration.ZERO, Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
