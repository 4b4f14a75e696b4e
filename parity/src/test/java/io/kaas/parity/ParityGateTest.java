package io.kaas.parity;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kaas.parity.ParityGate.Outcome;
import io.kaas.parity.ParityGate.Row;
import io.kaas.parity.ParityGate.Verdict;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ParityGateTest {
    private static Row row(String kaas, String apache) {
        return new Row(new Outcome(kaas, kaas.equals("PASS") ? "" : "kaas says why"),
                new Outcome(apache, apache.equals("FAIL") ? "Apache says why" : ""));
    }

    private static Verdict compare(Row baseline, Row now) {
        return ParityGate.compare(Map.of("client-x", baseline), Map.of("client-x", now), true, false);
    }

    @Test
    void aScenarioThatPassedOnKaasAndFailsNowIsARegression() {
        Verdict verdict = compare(row("PASS", "PASS"), row("FAIL", "PASS"));
        assertEquals(List.of("client-x: was PASS, now FAIL (kaas says why); on Apache PASS"), verdict.regressions());
    }

    @Test
    void aScenarioThatFailsOnApacheTooIsReportedNotCountedAgainstKaas() {
        Verdict verdict = compare(row("PASS", "PASS"), row("FAIL", "FAIL"));
        assertEquals(List.of(), verdict.regressions());
        assertEquals(List.of("client-x: fails on Apache too, so not counted against kaas: kaas FAIL (kaas says why);"
                        + " Apache FAIL (Apache says why)",
                "client-x: on Apache PASS -> FAIL (Apache says why) (update parity/baseline.tsv)"), verdict.notes());
    }

    @Test
    void aScenarioThatOnlySkipsOnApacheStillCountsAgainstKaas() {
        assertEquals(1, compare(row("PASS", "PASS"), row("FAIL", "SKIP")).regressions().size());
        assertEquals(1, compare(row("PASS", "-"), row("FAIL", "-")).regressions().size());
    }

    @Test
    void anAbsentClientIsARegressionOnlyWhereClientsAreRequired() {
        Map<String, Row> baseline = Map.of("client-x", row("PASS", "PASS"));
        Map<String, Row> absent = Map.of("client-x", row("ABSENT", "ABSENT"));
        assertEquals(List.of(), ParityGate.compare(baseline, absent, true, false).regressions());
        assertEquals(1, ParityGate.compare(baseline, absent, true, true).regressions().size());
    }

    @Test
    void otherChangesAreNotesNamingTheBaselineToUpdate() {
        Verdict verdict = compare(row("SKIP", "FAIL"), row("PASS", "PASS"));
        assertEquals(List.of(), verdict.regressions());
        assertEquals(List.of("client-x: SKIP -> PASS (update parity/baseline.tsv)",
                "client-x: on Apache FAIL -> PASS (update parity/baseline.tsv)"), verdict.notes());
    }

    @Test
    void theApacheColumnIsComparedOnlyWhenThePeerRan() {
        Verdict verdict = ParityGate.compare(Map.of("client-x", row("PASS", "PASS")),
                Map.of("client-x", row("PASS", "-")), false, false);
        assertEquals(List.of(), verdict.notes());
    }

    @Test
    void aScenarioMissingFromEitherSideIsARegression() {
        Verdict verdict = ParityGate.compare(Map.of("gone", row("PASS", "-")), Map.of("new", row("PASS", "-")), false, false);
        assertEquals(List.of("gone: in the baseline but no scenario ran", "new: PASS but missing from parity/baseline.tsv"),
                verdict.regressions());
    }

    @Test
    void readsTheBaselineAndTheReportAsRunShWritesThem(@TempDir Path dir) throws IOException {
        Path baseline = Files.writeString(dir.resolve("baseline.tsv"),
                "# comment\nclient-x\tPASS\tPASS\nkafka-y\tSKIP\t-\tnon-goal\n");
        Path report = Files.writeString(dir.resolve("report.tsv"),
                "client-x\tFAIL\twhy here\tFAIL\twhy there\nkafka-y\tSKIP\tnon-goal\t-\t\n");
        assertEquals(Map.of("client-x", row("PASS", "PASS"), "kafka-y", new Row(new Outcome("SKIP", ""), new Outcome("-", ""))),
                ParityGate.readBaseline(baseline));
        assertEquals(Map.of("client-x", new Row(new Outcome("FAIL", "why here"), new Outcome("FAIL", "why there")),
                        "kafka-y", new Row(new Outcome("SKIP", "non-goal"), new Outcome("-", ""))),
                ParityGate.readReport(report));
    }
}
