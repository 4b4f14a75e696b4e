package io.kaas.helm;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The chart's values reference, docs/helm-values.md, generated from values.yaml: each key's description is the
 * {@code # --} comment above it (continued by the {@code #} lines right after), its type and default are its value.
 * A key whose map holds documented keys is a section; any other documented key is one entry, its whole value the
 * default (so the keys inside a free-form map such as {@code resources} need no comment of their own).
 */
final class ValuesReference {
    private static final Pattern KEY = Pattern.compile("^( *)([A-Za-z0-9_.-]+):(?: .*)?$");
    private static final String DOC = "# --";
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory()
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
            .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES));
    private static final ObjectMapper JSON = new ObjectMapper();

    /** One documented key: a section (a map of documented keys) or an entry. */
    record Key(String path, String description, JsonNode value, boolean section) {
    }

    private final List<Key> keys = new ArrayList<>();
    private final List<String> problems = new ArrayList<>();

    private ValuesReference() {
    }

    /** Reads values.yaml's text; {@link #problems()} lists every key without a description. */
    static ValuesReference of(String valuesYaml) throws JsonProcessingException {
        ValuesReference reference = new ValuesReference();
        Map<String, String> descriptions = descriptions(valuesYaml);
        JsonNode tree = YAML.readTree(valuesYaml);
        reference.walk((ObjectNode) tree, "", descriptions);
        descriptions.keySet().stream()
                .filter(path -> reference.keys.stream().noneMatch(key -> key.path().equals(path)))
                .forEach(path -> reference.problems.add(path + ": a \"# --\" comment on no documented key (inside a"
                        + " list or a free-form map?)"));
        return reference;
    }

    List<Key> keys() {
        return keys;
    }

    /** Keys without a description, and descriptions on nothing the reference shows. */
    List<String> problems() {
        return problems;
    }

    /** The Markdown page: one heading per top-level key, a table of every documented key under a section. */
    String markdown() throws JsonProcessingException {
        StringBuilder page = new StringBuilder();
        page.append("# Helm chart values\n\n")
                .append("<!-- Generated from helm/kaas/values.yaml by HelmValuesReferenceIsCurrentTest (helm/tests);")
                .append(" edit the comments there, not this page. -->\n\n")
                .append("Every key of the chart's `helm/kaas/values.yaml`, with its type and default. Helm merges what")
                .append(" you set (`--set`, `-f`) over these defaults key by key, but a list you set replaces the whole")
                .append(" default list. `helm/kaas/values.schema.json` refuses values of the wrong type and unknown")
                .append(" keys.\n");
        for (Key top : keys) {
            if (top.path().contains(".")) {
                continue;
            }
            page.append("\n## `").append(top.path()).append("`\n\n").append(prose(top.description())).append('\n');
            if (!top.section()) {
                page.append("\nType: ").append(type(top.value())).append(". Default:");
                if (top.value().isContainerNode() && !top.value().isEmpty()) {
                    page.append("\n\n```yaml\n").append(YAML.writeValueAsString(top.value())).append("```\n");
                } else {
                    page.append(" `").append(JSON.writeValueAsString(top.value())).append("`.\n");
                }
                continue;
            }
            page.append("\n| Key | Type | Default | Description |\n|---|---|---|---|\n");
            for (Key key : keys) {
                if (key.path().startsWith(top.path() + ".")) {
                    page.append("| `").append(key.path()).append("` | ")
                            .append(key.section() ? "section" : type(key.value())).append(" | ")
                            .append(key.section() ? "" : "`" + cell(JSON.writeValueAsString(key.value())) + "`")
                            .append(" | ").append(cell(prose(key.description()))).append(" |\n");
                }
            }
        }
        return page.toString();
    }

    private void walk(ObjectNode map, String prefix, Map<String, String> descriptions) {
        for (Iterator<Map.Entry<String, JsonNode>> fields = map.fields(); fields.hasNext(); ) {
            Map.Entry<String, JsonNode> field = fields.next();
            String path = prefix + field.getKey();
            String description = descriptions.get(path);
            if (description == null) {
                problems.add(path + ": no \"# --\" comment above it in values.yaml");
                continue;
            }
            JsonNode value = field.getValue();
            boolean section = value.isObject() && hasDocumentedKey((ObjectNode) value, path + ".", descriptions);
            keys.add(new Key(path, description, value, section));
            if (section) {
                walk((ObjectNode) value, path + ".", descriptions);
            }
        }
    }

    private static boolean hasDocumentedKey(ObjectNode map, String prefix, Map<String, String> descriptions) {
        for (Iterator<String> names = map.fieldNames(); names.hasNext(); ) {
            if (descriptions.containsKey(prefix + names.next())) {
                return true;
            }
        }
        return false;
    }

    /**
     * Dotted key path → the {@code # --} comment right above the key's line. Paths come from indentation; lines of
     * list items give paths no map has, which {@link #of} reports if they carry a description.
     */
    private static Map<String, String> descriptions(String valuesYaml) {
        Map<String, String> descriptions = new LinkedHashMap<>();
        Deque<Map.Entry<Integer, String>> parents = new ArrayDeque<>();
        StringBuilder pending = null;
        for (String line : valuesYaml.split("\n", -1)) {
            String trimmed = line.strip();
            if (trimmed.startsWith(DOC)) {
                pending = new StringBuilder(trimmed.substring(DOC.length()).strip());
                continue;
            }
            if (trimmed.startsWith("#")) {
                if (pending != null) {
                    pending.append(' ').append(trimmed.substring(1).strip());
                }
                continue;
            }
            Matcher key = KEY.matcher(line);
            if (key.matches()) {
                int indent = key.group(1).length();
                while (!parents.isEmpty() && parents.peek().getKey() >= indent) {
                    parents.pop();
                }
                StringBuilder path = new StringBuilder();
                parents.descendingIterator().forEachRemaining(parent -> path.append(parent.getValue()).append('.'));
                path.append(key.group(2));
                if (pending != null) {
                    descriptions.put(path.toString(), pending.toString());
                }
                parents.push(Map.entry(indent, key.group(2)));
            }
            pending = null;
        }
        return descriptions;
    }

    private static String type(JsonNode value) {
        if (value.isTextual()) {
            return "string";
        }
        if (value.isIntegralNumber()) {
            return "integer";
        }
        if (value.isNumber()) {
            return "number";
        }
        if (value.isBoolean()) {
            return "boolean";
        }
        return value.isArray() ? "list" : "map";
    }

    /** A description as Markdown text: angle brackets (as in {@code <fullname>}) shown, not read as HTML. */
    private static String prose(String text) {
        return text.replace("<", "&lt;").replace(">", "&gt;");
    }

    private static String cell(String text) {
        return text.replace("|", "\\|");
    }
}
