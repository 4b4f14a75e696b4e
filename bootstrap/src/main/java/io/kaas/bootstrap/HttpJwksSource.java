package io.kaas.bootstrap;

import io.kaas.application.port.out.JwksSource;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * An issuer's JWKS endpoint over HTTP(S), with the JDK's client: asynchronous (its own threads do the I/O,
 * never an event loop), the JVM's default trust store for https, redirects followed except from https to
 * http. Anything but a 200 is a failed fetch.
 */
final class HttpJwksSource implements JwksSource {
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final URI endpoint;
    private final HttpClient client;

    HttpJwksSource(URI endpoint) {
        this.endpoint = endpoint;
        this.client = HttpClient.newBuilder().connectTimeout(TIMEOUT).followRedirects(HttpClient.Redirect.NORMAL)
                .build();
    }

    @Override
    public CompletionStage<byte[]> fetch() {
        HttpRequest request = HttpRequest.newBuilder(endpoint).timeout(TIMEOUT)
                .header("Accept", "application/json, application/jwk-set+json").GET().build();
        return client.sendAsync(request, HttpResponse.BodyHandlers.ofByteArray()).thenCompose(response ->
                response.statusCode() == 200 ? CompletableFuture.completedFuture(response.body())
                        : CompletableFuture.failedFuture(new IOException("HTTP " + response.statusCode())));
    }

    @Override
    public String location() {
        return endpoint.toString();
    }
}
