package io.kaas.domain.security;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Apache's {@code ssl.principal.mapping.rules} (KIP-371): how an mTLS client certificate's subject DN
 * (RFC 2253, as {@code X500Principal.getName()} prints it) becomes a principal name.
 *
 * <p>The rules are a comma-separated list, tried in order, the first that applies wins:
 * <ul>
 *   <li>{@code RULE:pattern/replacement/} applies when the Java regex {@code pattern} matches the whole DN;
 *       the name is the DN with every match of the pattern replaced by {@code replacement} ({@code $1}…
 *       back-references; a reference past the pattern's last group stays literal text, as in Apache). A
 *       trailing {@code L} or {@code U} ({@code RULE:p/r/L}) lower- or upper-cases the result. {@code \} escapes
 *       a {@code /} inside the pattern or replacement; commas inside them do not split the list.</li>
 *   <li>{@code DEFAULT} applies to every DN and gives the full DN, as Apache does. (The book's earlier
 *       implementation gave the CN here; kaas follows Apache, so {@code RULE:^CN=([^,]+).*$/$1/} is how a
 *       certificate maps to its CN.)</li>
 * </ul>
 * A DN no rule applies to maps to nothing, and Apache refuses that connection. Syntax errors, bad regexes
 * and replacements that could never be applied are refused by {@link #parse}, so a typo fails startup
 * instead of every connection.
 */
public final class SslPrincipalMapping {
    /** Apache's default for {@code ssl.principal.mapping.rules}: the full DN. */
    public static final String DEFAULT_RULES = "DEFAULT";
    public static final SslPrincipalMapping DEFAULT = parse(DEFAULT_RULES);

    private static final String DEFAULT_KEYWORD = "DEFAULT";
    private static final String RULE_PREFIX = "RULE:";

    private final String text;
    private final List<Rule> rules;

    private SslPrincipalMapping(String text, List<Rule> rules) {
        this.text = text;
        this.rules = List.copyOf(rules);
    }

    /**
     * Parses a rule list in Apache's syntax. Empty entries (two commas in a row, a trailing comma, a blank
     * list) are ignored as Apache ignores them: a blank list maps nothing.
     *
     * @throws IllegalArgumentException naming the offending rule and what is wrong with it
     */
    public static SslPrincipalMapping parse(String rules) {
        return new SslPrincipalMapping(rules, new RuleParser(rules.trim()).parse());
    }

    /** The principal name for a certificate subject DN, or empty when no rule applies (Apache refuses it). */
    public Optional<String> map(String distinguishedName) {
        for (Rule rule : rules) {
            Optional<String> name = rule.apply(distinguishedName);
            if (name.isPresent()) {
                return name;
            }
        }
        return Optional.empty();
    }

    /** {@link #map} as a {@code User:} principal, the type Apache's default principal builder gives. */
    public Optional<KafkaPrincipal> principal(String distinguishedName) {
        return map(distinguishedName).map(KafkaPrincipal::user);
    }

    @Override
    public String toString() {
        return text;
    }

    /** One entry: DEFAULT when {@code pattern} is null. */
    private record Rule(Pattern pattern, String replacement, Case resultCase) {
        Optional<String> apply(String dn) {
            if (pattern == null) {
                return Optional.of(dn);
            }
            Matcher matcher = pattern.matcher(dn);
            if (!matcher.matches()) {
                return Optional.empty();
            }
            // Every match replaced, not just the whole-DN one, as Apache does (String.replaceAll).
            return Optional.of(resultCase.apply(matcher.replaceAll(replacement)));
        }
    }

    private enum Case {
        AS_IS, LOWER, UPPER;

        String apply(String name) {
            return switch (this) {
                case AS_IS -> name;
                case LOWER -> name.toLowerCase(Locale.ENGLISH);
                case UPPER -> name.toUpperCase(Locale.ENGLISH);
            };
        }
    }

    /** A scanner over the rule list: entries split at commas outside a rule's pattern and replacement. */
    private static final class RuleParser {
        private final String spec;
        private int pos;

        RuleParser(String spec) {
            this.spec = spec;
        }

        List<Rule> parse() {
            List<Rule> rules = new ArrayList<>();
            while (true) {
                skipWhitespace();
                if (pos == spec.length()) {
                    return rules;
                }
                int start = pos;
                if (spec.charAt(pos) != ',') {
                    rules.add(entry(start));
                }
                skipWhitespace();
                if (pos < spec.length()) {
                    if (spec.charAt(pos) != ',') {
                        throw invalid(start, "unexpected '" + restOfEntry(pos) + "' after the rule");
                    }
                    pos++;
                }
            }
        }

        private Rule entry(int start) {
            if (spec.startsWith(DEFAULT_KEYWORD, pos)) {
                pos += DEFAULT_KEYWORD.length();
                return new Rule(null, null, Case.AS_IS);
            }
            if (!spec.startsWith(RULE_PREFIX, pos)) {
                throw invalid(start, "a rule is RULE:pattern/replacement/ (optionally followed by L or U) or DEFAULT");
            }
            pos += RULE_PREFIX.length();
            String regex = segment(start, "pattern");
            String replacement = segment(start, "replacement");
            Case resultCase = Case.AS_IS;
            if (pos < spec.length() && (spec.charAt(pos) == 'L' || spec.charAt(pos) == 'U')) {
                resultCase = spec.charAt(pos) == 'L' ? Case.LOWER : Case.UPPER;
                pos++;
            }
            Pattern pattern = compile(start, regex);
            return new Rule(pattern, checkedReplacement(start, pattern, replacement), resultCase);
        }

        /** Text up to the next unescaped '/', which is consumed; the escapes stay (the regex reads them). */
        private String segment(int start, String what) {
            int from = pos;
            while (pos < spec.length() && spec.charAt(pos) != '/') {
                pos += spec.charAt(pos) == '\\' && pos + 1 < spec.length() ? 2 : 1;
            }
            if (pos == spec.length()) {
                throw invalid(start, "the " + what + " is not closed by '/' (RULE:pattern/replacement/)");
            }
            return spec.substring(from, pos++);
        }

        private Pattern compile(int start, String regex) {
            try {
                return Pattern.compile(regex);
            } catch (PatternSyntaxException e) {
                throw invalid(start, "the pattern is not a valid regular expression: " + e.getDescription());
            }
        }

        /**
         * The replacement with references past the last group made literal (Apache's rule), checked against
         * the pattern's groups now rather than on the first certificate that matches.
         */
        private String checkedReplacement(int start, Pattern pattern, String replacement) {
            int groups = pattern.matcher("").groupCount();
            String literalized = literalizeMissingGroups(replacement, groups);
            // The pattern plus an empty alternative matches "" with the same groups, unset: enough to see
            // whether the replacement names a group that does not exist or is malformed.
            Matcher probe = Pattern.compile(pattern.pattern() + "|").matcher("");
            if (probe.matches()) {
                try {
                    probe.appendReplacement(new StringBuilder(), literalized);
                } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
                    throw invalid(start, "the replacement '" + replacement + "' cannot be applied: " + e.getMessage());
                }
            }
            return literalized;
        }

        private IllegalArgumentException invalid(int start, String reason) {
            return new IllegalArgumentException("invalid ssl.principal.mapping.rules entry '" + restOfEntry(start)
                    + "': " + reason);
        }

        private String restOfEntry(int from) {
            return spec.substring(from).strip();
        }

        private void skipWhitespace() {
            while (pos < spec.length() && Character.isWhitespace(spec.charAt(pos))) {
                pos++;
            }
        }
    }

    /**
     * Apache (after Apache NiFi) treats {@code $n} past the pattern's last group as the text "$n": the
     * number is shortened digit by digit as Java does ({@code $12} with 3 groups is group 1 then "2"), and
     * what still names no group gets its '$' escaped. A pattern with no groups at all is left alone.
     */
    static String literalizeMissingGroups(String replacement, int groups) {
        if (groups == 0) {
            return replacement;
        }
        StringBuilder out = new StringBuilder(replacement.length() + 4);
        int i = 0;
        while (i < replacement.length()) {
            char c = replacement.charAt(i);
            if (c == '\\' && i + 1 < replacement.length()) {
                out.append(c).append(replacement.charAt(i + 1));
                i += 2;
                continue;
            }
            if (c == '$' && i + 1 < replacement.length() && isNonZeroDigit(replacement.charAt(i + 1))) {
                int end = i + 1;
                while (end < replacement.length() && Character.isDigit(replacement.charAt(end))) {
                    end++;
                }
                if (firstGroupReference(replacement.substring(i + 1, end), groups) > groups) {
                    out.append('\\');
                }
            }
            out.append(c);
            i++;
        }
        return out.toString();
    }

    private static boolean isNonZeroDigit(char c) {
        return c >= '1' && c <= '9';
    }

    /** The group {@code $digits} names, read as Java reads it: longest prefix that is a group, at least one digit. */
    private static long firstGroupReference(String digits, int groups) {
        long reference = Long.parseLong(digits.substring(0, Math.min(digits.length(), 18)));
        while (reference > groups && reference >= 10) {
            reference /= 10;
        }
        return reference;
    }
}
