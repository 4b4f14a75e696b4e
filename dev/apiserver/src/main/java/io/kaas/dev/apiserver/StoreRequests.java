package io.kaas.dev.apiserver;

import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.Headers;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.nio.charset.StandardCharsets;

/** Requests this server makes of fabric8's CRUD store in place of, or on behalf of, a client's request. */
final class StoreRequests {
    private StoreRequests() {
    }

    static RecordedRequest get(String path) {
        return new RecordedRequest("HTTP/1.1", HttpMethod.GET, path, Headers.builder().build(), new Buffer());
    }

    static RecordedRequest withBody(HttpMethod method, String path, String contentType, String body) {
        return withBody(method, path, contentType, body.getBytes(StandardCharsets.UTF_8));
    }

    static RecordedRequest withBody(HttpMethod method, String path, String contentType, byte[] body) {
        Headers headers = Headers.builder().add(Responses.CONTENT_TYPE, contentType).build();
        return new RecordedRequest("HTTP/1.1", method, path, headers, new Buffer(body));
    }

    /** {@code request} at another path (its query stripped, say), headers and body kept. */
    static RecordedRequest atPath(RecordedRequest request, String path) {
        return new RecordedRequest(request.getHttpVersion(), request.method(), path, request.getHeaders(),
                new Buffer(request.getBody() == null ? null : request.getBody().getBytes()));
    }

    /** The body of a request, without consuming it. */
    static byte[] body(RecordedRequest request) {
        return request.getBody() == null ? new byte[0] : request.getBody().getBytes();
    }

    /** The body of a store answer, without consuming it. */
    static byte[] body(io.fabric8.mockwebserver.http.MockResponse response) {
        return response.getBody() == null ? new byte[0] : response.getBody().getBytes();
    }
}
