package io.kaas.dev.apiserver;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;

/**
 * The JSON trees this server reads and writes itself (tables, discovery documents, patches). fabric8's model types go
 * through fabric8's own {@code Serialization}.
 */
final class Json {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private Json() {
    }

    static ObjectNode object() {
        return JSON.createObjectNode();
    }

    /** Parses a JSON body; {@link IllegalArgumentException} if it is not JSON. */
    static JsonNode read(byte[] body) {
        try {
            return JSON.readTree(body);
        } catch (IOException e) {
            throw new IllegalArgumentException("not JSON: " + e.getMessage(), e);
        }
    }

    /** Parses a YAML body (JSON is YAML too), as server-side apply sends it. */
    static JsonNode readYaml(byte[] body) {
        try {
            return YAML.readTree(body);
        } catch (IOException e) {
            throw new IllegalArgumentException("not YAML: " + e.getMessage(), e);
        }
    }

    static JsonNode valueToTree(Object value) {
        return JSON.valueToTree(value);
    }

    static String write(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialize " + value.getClass().getSimpleName(), e);
        }
    }

    static String writeYaml(Object value) {
        try {
            return YAML.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialize " + value.getClass().getSimpleName(), e);
        }
    }
}
