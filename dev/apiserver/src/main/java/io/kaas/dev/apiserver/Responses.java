package io.kaas.dev.apiserver;

import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.http.MockResponse;

/** The answers this server writes itself: JSON bodies and Kubernetes {@code Status} failures. */
final class Responses {
    static final String CONTENT_TYPE = "Content-Type";
    static final String JSON = "application/json";

    private Responses() {
    }

    static MockResponse json(int code, String body) {
        return new MockResponse().setResponseCode(code).setHeader(CONTENT_TYPE, JSON).setBody(body);
    }

    /** A fabric8 model object (or a Jackson tree) as JSON. */
    static MockResponse json(int code, Object body) {
        return json(code, body instanceof com.fasterxml.jackson.databind.JsonNode tree ? Json.write(tree)
                : Serialization.asJson(body));
    }

    /** A {@code Status} with {@code status: Failure}, as kube-apiserver answers a request it refuses. */
    static MockResponse failure(int code, String reason, String message) {
        Status status = new StatusBuilder().withStatus("Failure").withCode(code).withReason(reason).withMessage(message)
                .withNewMetadata().endMetadata().build();
        return json(code, status);
    }

    /** 404 naming the object as kube-apiserver does: {@code kafkatopics.kaas.rs "orders" not found}. */
    static MockResponse notFound(ResourcePath path) {
        Status status = new StatusBuilder().withStatus("Failure").withCode(404).withReason("NotFound")
                .withMessage(path.groupResource() + " \"" + path.name() + "\" not found")
                .withNewDetails().withName(path.name()).withGroup(path.group()).withKind(path.plural()).endDetails()
                .withNewMetadata().endMetadata().build();
        return json(404, status);
    }
}
