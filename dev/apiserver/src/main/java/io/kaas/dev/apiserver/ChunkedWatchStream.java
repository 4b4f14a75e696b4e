package io.kaas.dev.apiserver;

import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.mockwebserver.http.Response;
import io.fabric8.mockwebserver.http.WebSocket;
import io.fabric8.mockwebserver.http.WebSocketListener;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerResponse;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A watch served as kube-apiserver serves one over plain HTTP ({@code ?watch=true} without a WebSocket upgrade, as
 * kubectl and client-go send it): a 200 whose chunked body is one JSON watch event per line, open until either side
 * closes it. It presents itself to fabric8's watch listener as the WebSocket that listener was written for, so the
 * store's watch machinery (matching, replay, change events) serves both transports.
 */
final class ChunkedWatchStream implements WebSocket {
    /** WebSocket's "going away": the client closed the stream. */
    private static final int GOING_AWAY = 1001;

    private final HttpServerResponse out;
    private final RecordedRequest request;
    private final AtomicBoolean closed = new AtomicBoolean();

    private ChunkedWatchStream(HttpServerResponse out, RecordedRequest request) {
        this.out = out;
        this.request = request;
    }

    /** Starts the stream on {@code out} and hands it to the watch listener of {@code response}. */
    static void open(HttpServerResponse out, RecordedRequest request, Response response) {
        WebSocketListener listener = response.getWebSocketListener();
        ChunkedWatchStream stream = new ChunkedWatchStream(out, request);
        out.setStatusCode(200).setChunked(true).putHeader(Responses.CONTENT_TYPE, Responses.JSON);
        out.closeHandler(ignored -> {
            if (stream.closed.compareAndSet(false, true)) {
                listener.onClosed(stream, GOING_AWAY, "the client closed the watch");
            }
        });
        listener.onBeforeAccept(stream, response);
        out.writeHead(); // the client's Do() returns on the headers, before any event
        listener.onOpen(stream, response);
    }

    @Override
    public RecordedRequest request() {
        return request;
    }

    @Override
    public boolean send(String text) {
        if (closed.get()) {
            return false;
        }
        out.write(text + "\n");
        return true;
    }

    @Override
    public boolean send(byte[] bytes) {
        if (closed.get()) {
            return false;
        }
        out.write(Buffer.buffer(bytes).appendString("\n"));
        return true;
    }

    @Override
    public boolean close(int code, String reason) {
        if (closed.compareAndSet(false, true)) {
            out.end();
        }
        return true;
    }
}
