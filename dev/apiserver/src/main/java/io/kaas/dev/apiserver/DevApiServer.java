package io.kaas.dev.apiserver;

import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import io.fabric8.mockwebserver.dsl.MockServerExpectation;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.internal.MockServerExpectationImpl;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;

/**
 * A stand-in Kubernetes API server for running kaas on a machine without Kubernetes, the one the Kubernetes adapter's
 * integration tests run against, and one kubectl can drive. fabric8's mock server in CRUD mode is the store (it keeps
 * whatever is created, Leases, EndpointSlices and custom resources included, answers 409 to a stale resourceVersion
 * and serves watches); {@link KubeApiDispatcher} adds what kube-apiserver clients expect on top of it (version,
 * discovery of built-in types and of the CRDs stored, OpenAPI, Tables, merge, strategic merge and apply patches,
 * allow-all access reviews), and {@link ApiHttpServer} serves it on plain HTTP at 127.0.0.1 only, watches over
 * WebSocket (fabric8) or chunked HTTP (kubectl). The namespaces {@code default} and {@code kube-system} exist from
 * the start. Canned answers set with {@code expect()} take precedence over everything.
 *
 * <p>Not kube-apiserver: no admission, defaulting or validation, no RBAC (everything is allowed), no garbage collection
 * and no controllers; server-side apply is a merge without managedFields; strategic merge replaces lists; no dry
 * runs; resource versions are one global counter; a watch replays nothing it missed; the store is memory only.
 *
 * <p>{@code java -jar kaas-dev-apiserver.jar [--kubeconfig PATH] <port>} (port 0 picks a free one) prints
 * {@code apiserver http://127.0.0.1:<port>} on standard output once it accepts connections (after writing the
 * kubeconfig, if asked), and serves until SIGTERM.
 */
public final class DevApiServer implements AutoCloseable {
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();
    private static final String USAGE =
            "usage: java -jar kaas-dev-apiserver.jar [--kubeconfig PATH] <port>   (port 0 picks a free port)";

    private final ApiHttpServer http;
    private final Map<ServerRequest, Queue<ServerResponse>> expectations;
    private final Context context;

    private DevApiServer(ApiHttpServer http, Map<ServerRequest, Queue<ServerResponse>> expectations, Context context) {
        this.http = http;
        this.expectations = expectations;
        this.context = context;
    }

    public static void main(String[] args) throws InterruptedException {
        Path kubeconfig = null;
        String port = null;
        List<String> rest = new ArrayList<>(List.of(args));
        while (!rest.isEmpty()) {
            String arg = rest.remove(0);
            if (arg.equals("--kubeconfig") && !rest.isEmpty()) {
                kubeconfig = Path.of(rest.remove(0));
            } else if (arg.startsWith("--kubeconfig=")) {
                kubeconfig = Path.of(arg.substring("--kubeconfig=".length()));
            } else if (port == null && arg.matches("\\d{1,5}") && Integer.parseInt(arg) <= 65535) {
                port = arg;
            } else {
                port = null;
                break;
            }
        }
        if (port == null) {
            System.err.println(USAGE);
            System.exit(2);
        }
        DevApiServer server = start(Integer.parseInt(port));
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.shutdown();
            stopped.countDown();
        }, "kaas-dev-apiserver-shutdown"));
        if (kubeconfig != null) {
            try {
                server.writeKubeconfig(kubeconfig);
            } catch (UncheckedIOException e) {
                System.err.println(e.getMessage() + ": " + e.getCause());
                System.exit(1); // the shutdown hook stops the server
            }
        }
        System.out.println("apiserver " + server.url());
        System.out.flush();
        stopped.await();
    }

    /** Starts a server on 127.0.0.1:{@code port} (0: a free port) holding only the default namespaces. */
    public static DevApiServer start(int port) {
        return start(port, Clock.systemUTC());
    }

    /** As {@link #start(int)}, with the clock Age columns are measured against. */
    @SuppressWarnings("deprecation") // Serialization.jsonMapper(): the mapper fabric8's CRUD mode is built with
    static DevApiServer start(int port, Clock clock) {
        Map<ServerRequest, Queue<ServerResponse>> expectations = new ConcurrentHashMap<>();
        KubeApiDispatcher dispatcher = new KubeApiDispatcher(expectations, clock);
        for (String namespace : List.of("default", "kube-system")) {
            MockResponse created = dispatcher.create("/api/v1/namespaces", "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\","
                    + "\"metadata\":{\"name\":\"" + namespace + "\"},\"status\":{\"phase\":\"Active\"}}");
            if (created.code() != 201) {
                throw new IllegalStateException("cannot create namespace " + namespace + ": " + created.code());
            }
        }
        ApiHttpServer http = ApiHttpServer.start(LOOPBACK, port, dispatcher);
        return new DevApiServer(http, expectations, new Context(Serialization.jsonMapper()));
    }

    public int getPort() {
        return http.port();
    }

    /** Where clients reach this server: by address, so no client resolves "localhost" to an address it does not bind. */
    public String url() {
        return "http://" + LOOPBACK.getHostAddress() + ":" + getPort();
    }

    /** A canned answer for a method and path (with query), which takes precedence over the store. */
    public MockServerExpectation expect() {
        return new MockServerExpectationImpl(expectations, context);
    }

    /** Writes a kubeconfig whose current context is this server (see {@link #url()}). */
    public void writeKubeconfig(Path file) {
        Kubeconfig.write(file, url());
    }

    /** Stops serving: open watches end, the store is dropped. */
    public void shutdown() {
        http.stop();
    }

    @Override
    public void close() {
        shutdown();
    }
}
