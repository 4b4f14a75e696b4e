package io.kaas.dev.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Renders objects as a {@code meta.k8s.io} {@code Table}, the server-side printing kubectl asks for with
 * {@code Accept: application/json;as=Table;v=v1;g=meta.k8s.io}: a Name column, then the resource's printer
 * columns, one row per object. Cells follow kube-apiserver's rules for custom resources: the first value the
 * column's path reaches; strings as text (objects and arrays as JSON), integers, numbers and booleans only when
 * the value has that type, dates as an age; anything else is a null cell, which kubectl leaves blank. Each row
 * carries the object, its metadata only, or nothing, as {@code includeObject} asks.
 */
final class TableRenderer {
    private static final String NAME_DESCRIPTION = "Name must be unique within a namespace. "
            + "More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names";

    /** What each row carries besides its cells ({@code includeObject}). */
    enum IncludeObject {
        NONE, METADATA, OBJECT;

        static IncludeObject of(String parameter) {
            if (parameter == null || parameter.equals("PartialObjectMetadata")) {
                return METADATA;
            }
            return parameter.equals("Object") ? OBJECT : NONE;
        }
    }

    private final Clock clock;

    TableRenderer(Clock clock) {
        this.clock = clock;
    }

    /**
     * The meta.k8s.io version of Table an {@code Accept} header asks for ({@code v1} or {@code v1beta1}, the first
     * acceptable one), or null when it asks for none.
     */
    static String requestedVersion(String accept) {
        if (accept == null) {
            return null;
        }
        for (String range : accept.split(",")) {
            Map<String, String> parameters = new HashMap<>();
            String[] parts = range.split(";");
            for (int i = 1; i < parts.length; i++) {
                String[] pair = parts[i].trim().split("=", 2);
                if (pair.length == 2) {
                    parameters.put(pair[0].trim(), pair[1].trim());
                }
            }
            String version = parameters.get("v");
            if ("Table".equals(parameters.get("as")) && "meta.k8s.io".equals(parameters.get("g"))
                    && ("v1".equals(version) || "v1beta1".equals(version))) {
                return version;
            }
        }
        return null;
    }

    /** A Table of {@code objects} in the given API version of meta.k8s.io ({@code v1} or {@code v1beta1}). */
    ObjectNode render(String metaVersion, List<JsonNode> objects, List<PrinterColumn> columns, IncludeObject include,
            String resourceVersion) {
        ObjectNode table = Json.object();
        table.put("kind", "Table");
        table.put("apiVersion", "meta.k8s.io/" + metaVersion);
        ObjectNode metadata = table.putObject("metadata");
        if (resourceVersion != null) {
            metadata.put("resourceVersion", resourceVersion);
        }
        ArrayNode definitions = table.putArray("columnDefinitions");
        definitions.add(definition("Name", "string", "name", NAME_DESCRIPTION, 0));
        for (PrinterColumn column : columns) {
            definitions.add(definition(column.name(), column.type(), column.format(), column.description(),
                    column.priority()));
        }
        ArrayNode rows = table.putArray("rows");
        Instant now = clock.instant();
        for (JsonNode object : objects) {
            ObjectNode row = rows.addObject();
            ArrayNode cells = row.putArray("cells");
            cells.add(object.path("metadata").path("name").asText());
            for (PrinterColumn column : columns) {
                cells.add(cell(column, object, now));
            }
            switch (include) {
                case OBJECT -> row.set("object", object);
                case METADATA -> row.set("object", partialMetadata(metaVersion, object));
                case NONE -> { }
            }
        }
        return table;
    }

    private static ObjectNode definition(String name, String type, String format, String description, int priority) {
        ObjectNode definition = Json.object();
        definition.put("name", name);
        definition.put("type", type);
        definition.put("format", format == null ? "" : format);
        definition.put("description", description == null ? "" : description);
        definition.put("priority", priority);
        return definition;
    }

    private static JsonNode cell(PrinterColumn column, JsonNode object, Instant now) {
        List<JsonNode> values = column.path().evaluate(object);
        if (values.isEmpty() || values.get(0).isNull()) {
            return NullNode.getInstance();
        }
        JsonNode value = values.get(0);
        return switch (column.type()) {
            case "string" -> Json.valueToTree(value.isValueNode() ? value.asText() : Json.write(value));
            case "integer" -> value.isIntegralNumber() || value.isNumber() && value.decimalValue().scale() <= 0
                    ? Json.valueToTree(value.longValue()) : NullNode.getInstance();
            case "number" -> value.isNumber() ? value : NullNode.getInstance();
            case "boolean" -> value.isBoolean() ? value : NullNode.getInstance();
            case "date" -> value.isTextual() ? Json.valueToTree(age(value.asText(), now)) : NullNode.getInstance();
            default -> NullNode.getInstance();
        };
    }

    private static String age(String timestamp, Instant now) {
        try {
            return HumanDuration.of(Duration.between(Instant.parse(timestamp), now));
        } catch (DateTimeParseException e) {
            return "<invalid>";
        }
    }

    private static ObjectNode partialMetadata(String metaVersion, JsonNode object) {
        ObjectNode partial = Json.object();
        partial.put("kind", "PartialObjectMetadata");
        partial.put("apiVersion", "meta.k8s.io/" + metaVersion);
        partial.set("metadata", object.path("metadata").deepCopy());
        return partial;
    }
}
