package io.kaas.dev.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.util.Locale;

/**
 * Turns the PATCH flavours kubectl and operators send into what fabric8's CRUD store does correctly. A JSON patch
 * (RFC 6902) goes to the store as it is. A merge patch, a strategic merge patch (its directives dropped, lists
 * replaced) and a server-side apply (its YAML or JSON intent merged in, without managedFields or conflict
 * detection) are merged into the current object here and stored with a PUT, at the same path, so {@code …/status}
 * still changes only the status; server-side apply of an absent object creates it. The caller holds the write lock,
 * so nothing changes between the read and the PUT; a {@code resourceVersion} in the patch is still checked by the
 * store (409 when stale).
 */
final class PatchTranslator {
    static final String JSON_PATCH = "application/json-patch+json";
    static final String MERGE_PATCH = "application/merge-patch+json";
    static final String STRATEGIC_MERGE_PATCH = "application/strategic-merge-patch+json";
    static final String APPLY_PATCH = "application/apply-patch+yaml";

    private final Dispatcher store;

    PatchTranslator(Dispatcher store) {
        this.store = store;
    }

    /** Handles a PATCH of {@code target}; {@code path} is the request's path without its query. */
    MockResponse patch(RecordedRequest request, ResourcePath target, String path) {
        String contentType = mediaType(request.getHeader(Responses.CONTENT_TYPE));
        byte[] body = StoreRequests.body(request);
        if (target.name() == null) {
            return Responses.failure(405, "MethodNotAllowed", "PATCH needs an object, not a collection: " + path);
        }
        try {
            return switch (contentType) {
                case JSON_PATCH -> store.dispatch(StoreRequests.withBody(HttpMethod.PATCH, path, JSON_PATCH, body));
                case MERGE_PATCH -> merge(target, path, Json.read(body), false);
                case STRATEGIC_MERGE_PATCH -> merge(target, path, MergePatch.fromStrategic(Json.read(body)), false);
                case APPLY_PATCH -> merge(target, path, Json.readYaml(body), true);
                default -> Responses.failure(415, "UnsupportedMediaType",
                        "the development API server takes JSON, merge, strategic merge and apply patches, not "
                                + contentType);
            };
        } catch (IllegalArgumentException e) {
            return Responses.failure(400, "BadRequest", e.getMessage());
        }
    }

    private MockResponse merge(ResourcePath target, String path, JsonNode patch, boolean createIfAbsent) {
        if (!patch.isObject()) {
            return Responses.failure(400, "BadRequest", "a patch must be a JSON object");
        }
        MockResponse current = store.dispatch(StoreRequests.get(target.objectPath()));
        if (current.code() == 404) {
            if (createIfAbsent && target.subresource() == null) {
                return store.dispatch(StoreRequests.withBody(HttpMethod.POST, target.collectionPath(),
                        Responses.JSON, Json.write(patch)));
            }
            return Responses.notFound(target);
        }
        if (current.code() != 200) {
            return current;
        }
        JsonNode merged = MergePatch.apply(Json.read(StoreRequests.body(current)), patch);
        return store.dispatch(StoreRequests.withBody(HttpMethod.PUT, path, Responses.JSON, Json.write(merged)));
    }

    /** {@code application/merge-patch+json; charset=utf-8} → {@code application/merge-patch+json}. */
    static String mediaType(String contentType) {
        if (contentType == null) {
            return "";
        }
        int semicolon = contentType.indexOf(';');
        return (semicolon < 0 ? contentType : contentType.substring(0, semicolon)).trim().toLowerCase(Locale.ROOT);
    }
}
