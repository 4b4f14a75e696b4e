package io.kaas.dev.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.mockwebserver.http.Response;
import io.fabric8.mockwebserver.http.WebSocket;
import io.fabric8.mockwebserver.http.WebSocketListener;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;

/**
 * Stands between a watch on fabric8's store and the client's connection, and rewrites the events that go out. The
 * store's watch replays every matching object as ADDED when it opens, whatever {@code resourceVersion} the client
 * asked to start from; a client that listed first (kubectl) has seen those, so ADDED events for objects at or below
 * that version are dropped, as kube-apiserver would not send them (resource versions are one global counter here, so
 * the comparison is sound). And when the client asked for Tables, each event's object becomes a one-row Table.
 */
final class WatchTranslator extends WebSocketListener {
    private final WebSocketListener storeWatch;
    private final long seenResourceVersion;
    private final UnaryOperator<JsonNode> objectView;
    private final AtomicReference<TranslatingSocket> socket = new AtomicReference<>();

    /**
     * @param storeWatch          the store's listener for this watch
     * @param seenResourceVersion the version the client starts from; 0 keeps the replay (a watch without a list)
     * @param objectView          what each event carries in place of the object
     */
    WatchTranslator(WebSocketListener storeWatch, long seenResourceVersion, UnaryOperator<JsonNode> objectView) {
        this.storeWatch = storeWatch;
        this.seenResourceVersion = seenResourceVersion;
        this.objectView = objectView;
    }

    @Override
    public void onBeforeAccept(WebSocket webSocket, Response response) {
        storeWatch.onBeforeAccept(translating(webSocket), response);
    }

    @Override
    public void onOpen(WebSocket webSocket, Response response) {
        storeWatch.onOpen(translating(webSocket), response);
    }

    @Override
    public void onMessage(WebSocket webSocket, String text) {
        storeWatch.onMessage(translating(webSocket), text);
    }

    @Override
    public void onMessage(WebSocket webSocket, byte[] bytes) {
        storeWatch.onMessage(translating(webSocket), bytes);
    }

    @Override
    public void onClosing(WebSocket webSocket, int code, String reason) {
        storeWatch.onClosing(translating(webSocket), code, reason);
    }

    @Override
    public void onClosed(WebSocket webSocket, int code, String reason) {
        storeWatch.onClosed(translating(webSocket), code, reason);
    }

    @Override
    public void onFailure(WebSocket webSocket, Throwable error, Response response) {
        storeWatch.onFailure(translating(webSocket), error, response);
    }

    /** One translating socket per connection: the store's listener keeps the first socket it is given. */
    private WebSocket translating(WebSocket connection) {
        socket.compareAndSet(null, new TranslatingSocket(connection));
        return socket.get();
    }

    /** The event to send in place of {@code event}, or null to send nothing. */
    String translate(String event) {
        JsonNode parsed = Json.read(event.getBytes(StandardCharsets.UTF_8));
        if (!(parsed instanceof ObjectNode watchEvent) || !parsed.path("object").isObject()) {
            return event;
        }
        JsonNode object = watchEvent.get("object");
        if (seenResourceVersion > 0 && "ADDED".equals(watchEvent.path("type").asText())
                && resourceVersion(object) <= seenResourceVersion) {
            return null;
        }
        watchEvent.set("object", objectView.apply(object));
        return Json.write(watchEvent);
    }

    private static long resourceVersion(JsonNode object) {
        try {
            return Long.parseLong(object.path("metadata").path("resourceVersion").asText());
        } catch (NumberFormatException e) {
            return Long.MAX_VALUE; // not one of ours: never treat it as already seen
        }
    }

    private final class TranslatingSocket implements WebSocket {
        private final WebSocket connection;

        TranslatingSocket(WebSocket connection) {
            this.connection = connection;
        }

        @Override
        public RecordedRequest request() {
            return connection.request();
        }

        @Override
        public boolean send(String text) {
            String translated = translate(text);
            return translated == null || connection.send(translated);
        }

        @Override
        public boolean send(byte[] bytes) {
            return send(new String(bytes, StandardCharsets.UTF_8));
        }

        @Override
        public boolean close(int code, String reason) {
            return connection.close(code, reason);
        }
    }
}
