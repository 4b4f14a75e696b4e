package io.kaas.dev.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Iterator;
import java.util.Map;

/**
 * JSON merge patch (RFC 7386), and the reduction of a strategic merge patch to one. fabric8's CRUD store merges
 * "merge patches" with Jackson's {@code readerForUpdating}, which keeps {@code null}s instead of removing fields and
 * appends to arrays instead of replacing them, so this server merges itself and stores the result.
 */
final class MergePatch {
    private MergePatch() {
    }

    /** {@code target} with {@code patch} merged in; neither argument is modified. */
    static JsonNode apply(JsonNode target, JsonNode patch) {
        if (!patch.isObject()) {
            return patch.deepCopy();
        }
        ObjectNode result = target != null && target.isObject() ? ((ObjectNode) target).deepCopy() : Json.object();
        for (Iterator<Map.Entry<String, JsonNode>> fields = patch.fields(); fields.hasNext(); ) {
            Map.Entry<String, JsonNode> field = fields.next();
            if (field.getValue().isNull()) {
                result.remove(field.getKey());
            } else {
                result.set(field.getKey(), apply(result.get(field.getKey()), field.getValue()));
            }
        }
        return result;
    }

    /**
     * A strategic merge patch read as a merge patch: its directives ({@code $setElementOrder/…},
     * {@code $retainKeys}, {@code $deleteFromPrimitiveList/…}) dropped, {@code $patch: delete} on an object turned
     * into removal. Lists are then replaced, not merged by key: the difference from kube-apiserver this server has.
     */
    static JsonNode fromStrategic(JsonNode patch) {
        if (patch.isObject()) {
            if ("delete".equals(patch.path("$patch").asText())) {
                return NullNode.getInstance();
            }
            ObjectNode result = Json.object();
            for (Iterator<Map.Entry<String, JsonNode>> fields = patch.fields(); fields.hasNext(); ) {
                Map.Entry<String, JsonNode> field = fields.next();
                if (!field.getKey().startsWith("$")) {
                    result.set(field.getKey(), fromStrategic(field.getValue()));
                }
            }
            return result;
        }
        if (patch.isArray()) {
            ArrayNode result = Json.object().arrayNode();
            for (JsonNode element : patch) {
                if (!(element.isObject() && element.has("$patch"))) {
                    result.add(fromStrategic(element));
                }
            }
            return result;
        }
        return patch;
    }
}
