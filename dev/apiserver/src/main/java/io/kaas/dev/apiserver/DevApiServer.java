package io.kaas.dev.apiserver;

import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import java.net.InetAddress;
import java.util.HashMap;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CountDownLatch;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A stand-in Kubernetes API server for running a kaas cluster on a machine without Kubernetes, and the one the
 * Kubernetes adapter's integration tests run against: fabric8's mock server in CRUD mode (it stores whatever is
 * created, Leases and EndpointSlices included, answers 409 to a stale resourceVersion and serves watches over
 * WebSocket), on plain HTTP at 127.0.0.1 only. Canned answers set with {@code expect()} take precedence over the
 * store. Not kube-apiserver: no admission, validation, RBAC, garbage collection or controllers, a watch replays
 * nothing it missed, kubectl mostly does not work against it (K8S-DEV-APISERVER.md in the shared folder), and it keeps
 * every request in memory, so a long run grows.
 *
 * <p>{@code java -jar kaas-dev-apiserver.jar <port>} (0 picks a free one) prints {@code apiserver http://127.0.0.1:<port>}
 * on standard output once it accepts connections, and serves until SIGTERM.
 */
public final class DevApiServer {
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();
    /** Held here: java.util.logging keeps loggers weakly, and a collected one forgets its level. */
    private static final Logger REQUEST_LOG = Logger.getLogger("io.fabric8.mockwebserver");

    private DevApiServer() {
    }

    public static void main(String[] args) throws InterruptedException {
        if (args.length != 1 || !args[0].matches("\\d{1,5}") || Integer.parseInt(args[0]) > 65535) {
            System.err.println("usage: java -jar kaas-dev-apiserver.jar <port>   (0 picks a free port)");
            System.exit(2);
        }
        KubernetesMockServer server = start(Integer.parseInt(args[0]));
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.shutdown();
            stopped.countDown();
        }, "kaas-dev-apiserver-shutdown"));
        System.out.println("apiserver " + url(server));
        System.out.flush();
        stopped.await();
    }

    /** Starts a CRUD-mode server with an empty store on 127.0.0.1:{@code port} (0: a free port); stop it with {@code shutdown()}. */
    @SuppressWarnings("deprecation") // Serialization.jsonMapper(): the mapper fabric8's own CRUD mode is built with
    public static KubernetesMockServer start(int port) {
        REQUEST_LOG.setLevel(Level.WARNING); // the mock logs every request at INFO
        Map<ServerRequest, Queue<ServerResponse>> expectations = new HashMap<>();
        KubernetesMockServer server = new KubernetesMockServer(new Context(Serialization.jsonMapper()),
                new MockWebServer(), expectations, new KubernetesMixedDispatcher(expectations), false);
        server.start(LOOPBACK, port);
        return server;
    }

    /** Where clients reach {@code server}: by address, so no client resolves "localhost" to an address it does not bind. */
    public static String url(KubernetesMockServer server) {
        return "http://" + LOOPBACK.getHostAddress() + ":" + server.getPort();
    }
}
