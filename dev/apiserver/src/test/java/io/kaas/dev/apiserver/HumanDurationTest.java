package io.kaas.dev.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class HumanDurationTest {
    @ParameterizedTest
    @CsvSource({
            "-5, <invalid>", "-1, 0s", "0, 0s", "119, 119s", "120, 2m", "150, 2m30s", "599, 9m59s", "600, 10m",
            "10799, 179m", "10800, 3h", "11100, 3h5m", "28799, 7h59m", "28800, 8h", "172799, 47h", "172800, 2d",
            "180000, 2d2h", "691199, 7d23h", "691200, 8d", "63071999, 729d", "63072000, 2y", "64000000, 2y10d",
            "252288000, 8y"})
    void showsAnAgeAsKubectlDoes(long seconds, String shown) {
        assertThat(HumanDuration.of(Duration.ofSeconds(seconds))).isEqualTo(shown);
    }
}
