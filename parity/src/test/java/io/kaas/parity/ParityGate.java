package io.kaas.parity;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The parity suite's regression gate: compares one run's report (run.sh --report: scenario, result on kaas,
 * reason, and with a peer its result and reason there) with {@code parity/baseline.tsv} (scenario, kaas,
 * Apache, note). A scenario that PASSed on kaas in the baseline and does not now is a regression, unless
 * it FAILs on Apache in the same run too: then the scenario, not kaas, is what broke, and it is reported
 * as "fails on Apache too". A client not installed (ABSENT) is a regression only where clients are
 * required (CI). Every other change is a note saying what to update in the baseline.
 */
final class ParityGate {
    /** What a run did not run against the peer, in the report and in the baseline's Apache column. */
    static final String NOT_RUN = "-";

    record Outcome(String result, String reason) {
        @Override
        public String toString() {
            return reason.isEmpty() ? result : result + " (" + reason + ")";
        }
    }

    /** One scenario: its result on kaas and on Apache (NOT_RUN when the peer did not run it). */
    record Row(Outcome kaas, Outcome apache) {}

    record Verdict(List<String> regressions, List<String> notes) {}

    private ParityGate() {}

    static Verdict compare(Map<String, Row> baseline, Map<String, Row> run, boolean peerRan, boolean clientsRequired) {
        List<String> regressions = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        TreeSet<String> scenarios = new TreeSet<>(baseline.keySet());
        scenarios.addAll(run.keySet());
        for (String scenario : scenarios) {
            Row was = baseline.get(scenario);
            Row now = run.get(scenario);
            if (now == null) {
                regressions.add(scenario + ": in the baseline but no scenario ran");
                continue;
            }
            if (was == null) {
                regressions.add(scenario + ": " + now.kaas() + " but missing from parity/baseline.tsv");
                continue;
            }
            String before = was.kaas().result();
            String after = now.kaas().result();
            if (before.equals("PASS") && after.equals("ABSENT") && !clientsRequired) {
                notes.add(scenario + ": not installed here, not run (CI installs it: see .ci/run)");
            } else if (before.equals("PASS") && !after.equals("PASS")) {
                if (now.apache().result().equals("FAIL")) {
                    notes.add(scenario + ": fails on Apache too, so not counted against kaas: kaas " + now.kaas()
                            + "; Apache " + now.apache());
                } else {
                    regressions.add(scenario + ": was PASS, now " + now.kaas()
                            + (now.apache().result().equals(NOT_RUN) ? "" : "; on Apache " + now.apache()));
                }
            } else if (!before.equals(after)) {
                notes.add(scenario + ": " + before + " -> " + after + " (update parity/baseline.tsv)");
            }
            String apacheBefore = was.apache().result();
            String apacheAfter = now.apache().result();
            if (peerRan && !apacheBefore.equals(apacheAfter)) {
                notes.add(scenario + ": on Apache " + apacheBefore + " -> " + now.apache() + " (update parity/baseline.tsv)");
            }
        }
        return new Verdict(regressions, notes);
    }

    /** parity/baseline.tsv: scenario, kaas, Apache (NOT_RUN if CI does not run it there), an optional note. */
    static Map<String, Row> readBaseline(Path file) throws IOException {
        Map<String, Row> rows = new LinkedHashMap<>();
        for (String[] cols : tabSeparated(file)) {
            rows.put(cols[0], new Row(new Outcome(column(cols, 1), ""), new Outcome(column(cols, 2), "")));
        }
        return rows;
    }

    /** run.sh's report: scenario, kaas, reason, then (with a peer) the peer's result and reason. */
    static Map<String, Row> readReport(Path file) throws IOException {
        Map<String, Row> rows = new LinkedHashMap<>();
        for (String[] cols : tabSeparated(file)) {
            Outcome peer = cols.length > 3 ? new Outcome(column(cols, 3), column(cols, 4)) : new Outcome(NOT_RUN, "");
            rows.put(cols[0], new Row(new Outcome(column(cols, 1), column(cols, 2)), peer));
        }
        return rows;
    }

    private static List<String[]> tabSeparated(Path file) throws IOException {
        List<String[]> lines = new ArrayList<>();
        if (Files.exists(file)) {
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                if (!line.isBlank() && !line.startsWith("#")) {
                    lines.add(line.split("\t", -1));
                }
            }
        }
        return lines;
    }

    private static String column(String[] cols, int i) {
        return cols.length > i ? cols[i].trim() : "";
    }
}
