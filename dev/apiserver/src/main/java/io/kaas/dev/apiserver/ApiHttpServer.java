package io.kaas.dev.apiserver;

import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.Headers;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.mockwebserver.vertx.ServerWebSocketHandler;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import java.net.InetAddress;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP side of the development API server, on Vert.x (the HTTP stack fabric8's mock server is built on). It does
 * what fabric8's {@code MockWebServer} does (each request to a {@link Dispatcher}, its {@code MockResponse} written
 * back, a watch upgraded to a WebSocket when the client asks for one) and what that server cannot: a watch asked for
 * over plain HTTP is streamed as chunked JSON lines ({@link ChunkedWatchStream}) instead of failing the upgrade. It
 * keeps no log of requests, so a long run does not grow with its traffic.
 */
final class ApiHttpServer {
    private static final Logger LOG = LoggerFactory.getLogger(ApiHttpServer.class);
    /** The subprotocols kube-apiserver offers for WebSocket streams, as fabric8's mock offers them. */
    private static final List<String> WEBSOCKET_SUBPROTOCOLS =
            List.of("v1.channel.k8s.io", "v2.channel.k8s.io", "v3.channel.k8s.io", "v4.channel.k8s.io");
    private static final Set<io.vertx.core.http.HttpMethod> SERVED = Set.of(io.vertx.core.http.HttpMethod.GET,
            io.vertx.core.http.HttpMethod.POST, io.vertx.core.http.HttpMethod.PUT,
            io.vertx.core.http.HttpMethod.PATCH, io.vertx.core.http.HttpMethod.DELETE);

    private final Vertx vertx;
    private final HttpServer server;
    private final Dispatcher dispatcher;

    private ApiHttpServer(Vertx vertx, HttpServer server, Dispatcher dispatcher) {
        this.vertx = vertx;
        this.server = server;
        this.dispatcher = dispatcher;
    }

    /** Listens on {@code address}:{@code port} (0: a free port) and serves every request through {@code dispatcher}. */
    static ApiHttpServer start(InetAddress address, int port, Dispatcher dispatcher) {
        Vertx vertx = Vertx.vertx();
        HttpServer server = vertx.createHttpServer(new HttpServerOptions().setHost(address.getHostAddress())
                .setPort(port).setWebSocketSubProtocols(WEBSOCKET_SUBPROTOCOLS).setHandle100ContinueAutomatically(true));
        ApiHttpServer api = new ApiHttpServer(vertx, server, dispatcher);
        server.requestHandler(api::handle);
        try {
            await(server.listen());
        } catch (RuntimeException e) {
            await(vertx.close());
            throw new IllegalStateException("cannot listen on " + address.getHostAddress() + ":" + port, e);
        }
        return api;
    }

    int port() {
        return server.actualPort();
    }

    /** Closes every connection (open watches end) and stops listening. */
    void stop() {
        try {
            await(server.close());
        } finally {
            await(vertx.close());
            dispatcher.shutdown();
        }
    }

    private void handle(HttpServerRequest request) {
        if (!SERVED.contains(request.method())) {
            write(request.response(), Responses.failure(405, "MethodNotAllowed", request.method() + " is not served"));
            return;
        }
        Future<Buffer> body = mayHaveBody(request) ? request.body() : Future.succeededFuture(null);
        body.onFailure(e -> request.response().setStatusCode(400).end())
                .onSuccess(bytes -> respond(request, recorded(request, bytes)));
    }

    private void respond(HttpServerRequest request, RecordedRequest recorded) {
        MockResponse response;
        try {
            response = dispatcher.dispatch(recorded);
        } catch (RuntimeException e) {
            LOG.warn("{} failed", recorded, e);
            response = Responses.failure(500, "InternalError", recorded + " failed: " + e);
        }
        if (response.getWebSocketListener() == null) {
            write(request.response(), response);
        } else if ("websocket".equalsIgnoreCase(request.getHeader("Upgrade"))) {
            request.toWebSocket().onSuccess(new ServerWebSocketHandler(recorded, response))
                    .onFailure(e -> LOG.warn("{}: WebSocket upgrade failed: {}", recorded, e.toString()));
        } else {
            ChunkedWatchStream.open(request.response(), recorded, response);
        }
    }

    private static void write(HttpServerResponse out, MockResponse response) {
        out.setStatusCode(response.code() == 0 ? 200 : response.code());
        response.getHeaders().toMultimap().forEach((name, values) -> out.headers().add(name, values));
        byte[] body = response.getBody() == null ? new byte[0] : response.getBody().getBytes();
        if (body.length == 0) {
            out.end();
        } else {
            out.end(Buffer.buffer(body));
        }
    }

    private static RecordedRequest recorded(HttpServerRequest request, Buffer body) {
        String version = switch (request.version()) {
            case HTTP_1_0 -> "HTTP/1.0";
            case HTTP_1_1 -> "HTTP/1.1";
            case HTTP_2 -> "HTTP/2";
        };
        return new RecordedRequest(version, io.fabric8.mockwebserver.dsl.HttpMethod.fromVertx(request.method()),
                request.uri(), Headers.builder().addAll(request.headers()).build(),
                new io.fabric8.mockwebserver.http.Buffer(body == null ? null : body.getBytes()));
    }

    /**
     * Whether to read a body: a WebSocket upgrade must not be read as one, anything announcing a body is (over HTTP/2
     * a body may come without a length, so a content type announces one too).
     */
    private static boolean mayHaveBody(HttpServerRequest request) {
        String length = request.getHeader("Content-Length");
        return (length != null && !length.isBlank() && !length.trim().equals("0"))
                || request.getHeader("Transfer-Encoding") != null || request.getHeader("Content-Type") != null;
    }

    private static <T> T await(Future<T> future) {
        try {
            return future.toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException(e);
        }
    }
}
