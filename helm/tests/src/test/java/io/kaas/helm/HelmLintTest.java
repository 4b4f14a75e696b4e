package io.kaas.helm;

import static org.assertj.core.api.Assertions.assertThat;

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import org.junit.jupiter.api.Test;

/** {@code helm lint --strict} passes: the chart is well-formed and its defaults satisfy values.schema.json. */
class HelmLintTest {

    @Test
    void theChartLintsCleanUnderStrict() {
        LintResult result = new Helm(Chart.DIR).lint().strict().call();

        assertThat(result.isFailed()).as("helm lint --strict: %s", result.getMessages()).isFalse();
        assertThat(result.getMessages()).as("helm lint --strict messages")
                .noneMatch(message -> message.contains("[ERROR]") || message.contains("[WARNING]"));
    }
}
