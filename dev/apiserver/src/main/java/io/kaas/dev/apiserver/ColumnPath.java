package io.kaas.dev.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * The "simple JSON path" a printer column names its value with: {@code .spec.partitions},
 * {@code .metadata.labels.app\.kubernetes\.io/name}, {@code .spec.volumes[0]}, {@code ['key']}, {@code [*]} and
 * filters on arrays such as {@code .status.conditions[?(@.type=="Ready")].status} (with {@code ==}, {@code !=} or a
 * bare existence test). Recursive descent, slices, unions and functions are refused when the path is parsed.
 */
final class ColumnPath {
    private final String text;
    private final List<Step> steps;

    private ColumnPath(String text, List<Step> steps) {
        this.text = text;
        this.steps = steps;
    }

    /** Parses {@code path}, with or without kubectl's surrounding braces. */
    static ColumnPath parse(String path) {
        String body = path.trim();
        if (body.startsWith("{") && body.endsWith("}")) {
            body = body.substring(1, body.length() - 1).trim();
        }
        return new ColumnPath(path, new Parser(path, body).steps());
    }

    /** Every value the path reaches in {@code root}, in document order; empty when it reaches none. */
    List<JsonNode> evaluate(JsonNode root) {
        List<JsonNode> current = List.of(root);
        for (Step step : steps) {
            List<JsonNode> next = new ArrayList<>();
            for (JsonNode node : current) {
                step.apply(node, next);
            }
            current = next;
        }
        return current;
    }

    @Override
    public String toString() {
        return text;
    }

    private interface Step {
        void apply(JsonNode node, List<JsonNode> out);
    }

    private record Field(String name) implements Step {
        @Override
        public void apply(JsonNode node, List<JsonNode> out) {
            JsonNode child = node.isObject() ? node.get(name) : null;
            if (child != null) {
                out.add(child);
            }
        }
    }

    private record Index(int index) implements Step {
        @Override
        public void apply(JsonNode node, List<JsonNode> out) {
            if (node.isArray()) {
                int at = index < 0 ? node.size() + index : index;
                if (at >= 0 && at < node.size()) {
                    out.add(node.get(at));
                }
            }
        }
    }

    private record Wildcard() implements Step {
        @Override
        public void apply(JsonNode node, List<JsonNode> out) {
            if (node.isArray() || node.isObject()) {
                node.elements().forEachRemaining(out::add);
            }
        }
    }

    /** {@code [?(@.a.b == literal)]}: the elements of an array whose {@code a.b} compares as asked. */
    private record Filter(List<String> fields, String operator, JsonNode literal) implements Step {
        @Override
        public void apply(JsonNode node, List<JsonNode> out) {
            if (!node.isArray()) {
                return;
            }
            for (JsonNode element : node) {
                JsonNode value = element;
                for (String field : fields) {
                    value = value != null && value.isObject() ? value.get(field) : null;
                }
                boolean keep = switch (operator) {
                    case "==" -> value != null && same(value, literal);
                    case "!=" -> value != null && !same(value, literal);
                    default -> value != null;
                };
                if (keep) {
                    out.add(element);
                }
            }
        }

        private static boolean same(JsonNode value, JsonNode literal) {
            if (literal.isNumber() && value.isNumber()) {
                return value.decimalValue().compareTo(literal.decimalValue()) == 0;
            }
            if (literal.isBoolean() || literal.isNumber()) {
                return value.equals(literal);
            }
            return value.isTextual() && value.asText().equals(literal.asText());
        }
    }

    /** A small recursive-descent parser over the path text. */
    private static final class Parser {
        private final String original;
        private final String text;
        private int at;

        Parser(String original, String text) {
            this.original = original;
            this.text = text;
        }

        List<Step> steps() {
            List<Step> steps = new ArrayList<>();
            while (at < text.length()) {
                char c = text.charAt(at);
                if (c == '.') {
                    at++;
                    if (at < text.length() && text.charAt(at) == '.') {
                        throw invalid("recursive descent (..) is not supported");
                    }
                    if (at < text.length() && text.charAt(at) == '*') {
                        at++;
                        steps.add(new Wildcard());
                    } else if (at < text.length() && text.charAt(at) != '[') {
                        steps.add(new Field(name()));
                    }
                } else if (c == '[') {
                    steps.add(bracket());
                } else if (at == 0) {
                    steps.add(new Field(name())); // "spec.x" without the leading dot
                } else {
                    throw invalid("unexpected '" + c + "'");
                }
            }
            return steps;
        }

        private String name() {
            StringBuilder name = new StringBuilder();
            while (at < text.length() && text.charAt(at) != '.' && text.charAt(at) != '[') {
                char c = text.charAt(at++);
                if (c == '\\' && at < text.length()) {
                    c = text.charAt(at++);
                }
                name.append(c);
            }
            if (name.isEmpty()) {
                throw invalid("empty field name");
            }
            return name.toString();
        }

        private Step bracket() {
            int close = closing(at);
            String inside = text.substring(at + 1, close).trim();
            at = close + 1;
            if (inside.equals("*")) {
                return new Wildcard();
            }
            if (inside.startsWith("'") || inside.startsWith("\"")) {
                return new Field(unquote(inside));
            }
            if (inside.startsWith("?(") && inside.endsWith(")")) {
                return filter(inside.substring(2, inside.length() - 1).trim());
            }
            try {
                return new Index(Integer.parseInt(inside));
            } catch (NumberFormatException e) {
                throw invalid("unsupported subscript [" + inside + "]");
            }
        }

        /** The ']' closing the '[' at {@code open}, skipping quoted text and nested brackets. */
        private int closing(int open) {
            int depth = 0;
            char quote = 0;
            for (int i = open; i < text.length(); i++) {
                char c = text.charAt(i);
                if (quote != 0) {
                    quote = c == quote ? 0 : quote;
                } else if (c == '\'' || c == '"') {
                    quote = c;
                } else if (c == '[') {
                    depth++;
                } else if (c == ']' && --depth == 0) {
                    return i;
                }
            }
            throw invalid("unclosed '['");
        }

        private Step filter(String condition) {
            int op = operator(condition);
            String left = (op < 0 ? condition : condition.substring(0, op)).trim();
            if (!left.startsWith("@")) {
                throw invalid("a filter must test @: " + condition);
            }
            List<String> fields = new ArrayList<>();
            for (String field : left.substring(1).split("\\.")) {
                if (!field.isEmpty()) {
                    fields.add(field);
                }
            }
            if (op < 0) {
                return new Filter(fields, "exists", null);
            }
            return new Filter(fields, condition.substring(op, op + 2), literal(condition.substring(op + 2).trim()));
        }

        /** Where "==" or "!=" starts outside quotes, or -1. */
        private static int operator(String condition) {
            char quote = 0;
            for (int i = 0; i + 1 < condition.length(); i++) {
                char c = condition.charAt(i);
                if (quote != 0) {
                    quote = c == quote ? 0 : quote;
                } else if (c == '\'' || c == '"') {
                    quote = c;
                } else if ((c == '=' || c == '!') && condition.charAt(i + 1) == '=') {
                    return i;
                }
            }
            return -1;
        }

        private JsonNode literal(String value) {
            if (value.startsWith("'") || value.startsWith("\"")) {
                return TextNode.valueOf(unquote(value));
            }
            if (value.equals("true") || value.equals("false")) {
                return BooleanNode.valueOf(Boolean.parseBoolean(value));
            }
            try {
                return DecimalNode.valueOf(new BigDecimal(value));
            } catch (NumberFormatException e) {
                throw invalid("unsupported literal " + value);
            }
        }

        private String unquote(String quoted) {
            if (quoted.length() < 2 || quoted.charAt(quoted.length() - 1) != quoted.charAt(0)) {
                throw invalid("unbalanced quotes in " + quoted);
            }
            return quoted.substring(1, quoted.length() - 1);
        }

        private IllegalArgumentException invalid(String why) {
            return new IllegalArgumentException("JSON path " + original + ": " + why);
        }
    }
}
