package io.kaas.dev.apiserver;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.mockwebserver.http.MockResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A minimal OpenAPI v3 description: for each group-version, the object paths of its resource types with a PATCH
 * operation that names its kind ({@code x-kubernetes-group-version-kind}) and takes the {@code fieldValidation} query
 * parameter. That is what kubectl looks for to decide that the server validates fields itself, so it sends
 * {@code fieldValidation=Strict} instead of validating against schemas on the client. This server validates nothing
 * and describes no schemas: {@code kubectl explain} has nothing to show. {@code dryRun} is not advertised, so kubectl
 * says the server does not support dry-run rather than sending one. OpenAPI v2 is not served (404), which
 * kubectl tolerates once v3 answers.
 */
final class OpenApiResponder {
    private static final String V3 = "/openapi/v3";

    private final ResourceCatalog catalog;

    OpenApiResponder(ResourceCatalog catalog) {
        this.catalog = catalog;
    }

    /** The answer to a GET of {@code path} (without query), if it is an OpenAPI path. */
    Optional<MockResponse> answer(String path) {
        if (path.equals(V3) || path.equals(V3 + "/")) {
            return Optional.of(Responses.json(200, root()));
        }
        if (path.startsWith(V3 + "/")) {
            String groupVersionPath = path.substring(V3.length() + 1);
            return Optional.of(document(groupVersionPath)
                    .map(doc -> Responses.json(200, doc))
                    .orElseGet(() -> Responses.failure(404, "NotFound", "no OpenAPI document for " + path)));
        }
        if (path.startsWith("/openapi/") || path.equals("/swagger.json")) {
            return Optional.of(Responses.failure(404, "NotFound", "only OpenAPI v3 is served"));
        }
        return Optional.empty();
    }

    /** {@code {"paths": {"apis/G/V": {"serverRelativeURL": "/openapi/v3/apis/G/V?hash=..."}}}}. */
    private ObjectNode root() {
        ObjectNode root = Json.object();
        ObjectNode paths = root.putObject("paths");
        for (Map.Entry<String, List<String>> group : catalog.groupVersions().entrySet()) {
            for (String version : group.getValue()) {
                String groupVersionPath = group.getKey().isEmpty() ? "api/" + version
                        : "apis/" + group.getKey() + "/" + version;
                String hash = hash(Json.write(document(groupVersionPath).orElseThrow()));
                paths.putObject(groupVersionPath).put("serverRelativeURL", V3 + "/" + groupVersionPath + "?hash=" + hash);
            }
        }
        return root;
    }

    private Optional<ObjectNode> document(String groupVersionPath) {
        String[] parts = groupVersionPath.split("/");
        String group;
        String version;
        if (parts.length == 2 && parts[0].equals("api")) {
            group = "";
            version = parts[1];
        } else if (parts.length == 3 && parts[0].equals("apis")) {
            group = parts[1];
            version = parts[2];
        } else {
            return Optional.empty();
        }
        List<ApiResource> resources = catalog.resources().stream()
                .filter(r -> r.group().equals(group) && r.version().equals(version)).toList();
        if (resources.isEmpty()) {
            return Optional.empty();
        }
        ObjectNode doc = Json.object();
        doc.put("openapi", "3.0.0");
        doc.putObject("info").put("title", "Kubernetes").put("version", DiscoveryResponder.GIT_VERSION);
        ObjectNode paths = doc.putObject("paths");
        for (ApiResource resource : resources) {
            if (!resource.verbs().contains("patch")) {
                continue;
            }
            String prefix = "/" + groupVersionPath + (resource.namespaced() ? "/namespaces/{namespace}/" : "/");
            paths.putObject(prefix + resource.plural() + "/{name}").set("patch", patchOperation(resource));
        }
        doc.putObject("components").putObject("schemas");
        return Optional.of(doc);
    }

    private static ObjectNode patchOperation(ApiResource resource) {
        ObjectNode patch = Json.object();
        patch.put("operationId", "patch" + resource.kind());
        patch.put("x-kubernetes-action", "patch");
        patch.putObject("x-kubernetes-group-version-kind").put("group", resource.group())
                .put("version", resource.version()).put("kind", resource.kind());
        ArrayNode parameters = patch.putArray("parameters");
        for (String name : List.of("fieldManager", "fieldValidation", "force")) {
            ObjectNode parameter = parameters.addObject();
            parameter.put("name", name);
            parameter.put("in", "query");
            parameter.putObject("schema").put("type", name.equals("force") ? "boolean" : "string");
        }
        patch.putObject("responses").putObject("200").put("description", "OK");
        return patch;
    }

    private static String hash(String document) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(document.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().withUpperCase().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is always available", e);
        }
    }
}
