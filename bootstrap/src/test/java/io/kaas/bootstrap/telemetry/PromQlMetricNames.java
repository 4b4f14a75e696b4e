package io.kaas.bootstrap.telemetry;

import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The metric names a PromQL expression selects, found without a full parser: string literals, label
 * matchers, ranges, Grafana variables and the label lists of {@code by}/{@code on}/... are removed,
 * and every identifier left that is not a function call, keyword or literal is a metric name.
 */
final class PromQlMetricNames {
    private static final Pattern STRING = Pattern.compile("\"(?:[^\"\\\\]|\\\\.)*\"|'(?:[^'\\\\]|\\\\.)*'|`[^`]*`");
    private static final Pattern GRAFANA_VARIABLE = Pattern.compile("\\$\\{[^}]*}|\\$\\w+");
    private static final Pattern LABEL_LIST = Pattern.compile(
            "\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)");
    /** A word that does not start inside a number or duration ({@code 1e3}, {@code 5m}). */
    private static final Pattern IDENTIFIER = Pattern.compile("(?<![\\w.])[a-zA-Z_:][a-zA-Z0-9_:]*(?![\\w.])");
    private static final Set<String> KEYWORDS = Set.of("by", "without", "on", "ignoring", "group_left",
            "group_right", "bool", "and", "or", "unless", "offset", "inf", "nan");

    private PromQlMetricNames() {
    }

    static Set<String> in(String expression) {
        String bare = STRING.matcher(expression).replaceAll("\"\"");
        bare = GRAFANA_VARIABLE.matcher(bare).replaceAll("1m");
        bare = bare.replaceAll("\\{[^}]*}", " ").replaceAll("\\[[^]]*]", " ");
        bare = LABEL_LIST.matcher(bare).replaceAll(" ");
        Set<String> names = new TreeSet<>();
        Matcher m = IDENTIFIER.matcher(bare);
        while (m.find()) {
            String word = m.group();
            boolean call = bare.substring(m.end()).stripLeading().startsWith("(");
            if (!call && !KEYWORDS.contains(word.toLowerCase())) {
                names.add(word);
            }
        }
        return names;
    }
}
