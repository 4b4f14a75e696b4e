package io.kaas.operator.health;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The operator's probes: {@code /healthz} answers 200 while the process can answer at all (liveness), {@code /readyz}
 * 200 only when nothing is reported not ready, else 503 with one line per reason. Served on a thread of its own, so a
 * busy reconciler never delays a probe.
 */
public final class HealthServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(HealthServer.class);

    private final HttpServer server;
    private final ExecutorService thread;

    private HealthServer(HttpServer server, ExecutorService thread) {
        this.server = server;
        this.thread = thread;
    }

    /**
     * @param notReady what keeps the operator from being ready now; empty when it is
     */
    public static HealthServer start(HealthSettings settings, Supplier<List<String>> notReady) {
        HttpServer server;
        try {
            server = HttpServer.create(new InetSocketAddress(settings.host(), settings.port()), 16);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot serve health probes on " + settings.host() + ":" + settings.port(), e);
        }
        ExecutorService thread = Executors.newSingleThreadExecutor(task -> {
            Thread t = new Thread(task, "kaas-operator-health");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(thread);
        server.createContext("/healthz", exchange -> respond(exchange, 200, "ok\n"));
        server.createContext("/readyz", exchange -> {
            List<String> reasons = notReady.get();
            respond(exchange, reasons.isEmpty() ? 200 : 503,
                    reasons.isEmpty() ? "ready\n" : String.join("\n", reasons) + "\n");
        });
        server.start();
        LOG.info("health probes on http://{}:{}/healthz and /readyz", settings.host(), server.getAddress().getPort());
        return new HealthServer(server, thread);
    }

    /** The bound port (useful when 0 asked for a free one). */
    public int port() {
        return server.getAddress().getPort();
    }

    private static void respond(HttpExchange exchange, int status, String body) throws IOException {
        try (exchange; OutputStream out = exchange.getResponseBody()) {
            if (!"GET".equals(exchange.getRequestMethod())) {
                exchange.sendResponseHeaders(405, -1);
                return;
            }
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
            exchange.sendResponseHeaders(status, bytes.length);
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        server.stop(0);
        thread.shutdownNow();
    }
}
