package io.kaas.bootstrap.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PromQlMetricNamesTest {
    @Test
    void aHistogramQuantileNamesItsBucketSeriesOnly() {
        assertThat(PromQlMetricNames.in("histogram_quantile(0.99, sum by (le, api) "
                + "(rate(kaas_request_duration_seconds_bucket{job=~\"$job\", instance=~\"$instance\"}"
                + "[$__rate_interval])))"))
                .containsExactly("kaas_request_duration_seconds_bucket");
    }

    @Test
    void labelsStringsKeywordsDurationsAndNumbersAreNotNames() {
        assertThat(PromQlMetricNames.in("sum without (topic) (kaas_a_total{x=\"{not_a_name}\"} offset 5m) "
                + "/ on (job) group_left (api) kaas_b > 1e3 and up{job=\"kaas\"} == 0 or vector(0) unless nan"))
                .containsExactlyInAnyOrder("kaas_a_total", "kaas_b", "up");
    }

    @Test
    void aFunctionCallIsNotANameEvenWithSpaceBeforeItsParenthesis() {
        assertThat(PromQlMetricNames.in("sum by (group) (deriv (kaas_consumer_group_lag[15m])) > 0"))
                .containsExactly("kaas_consumer_group_lag");
    }
}
