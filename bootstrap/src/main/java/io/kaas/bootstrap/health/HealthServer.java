package io.kaas.bootstrap.health;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;
import java.util.function.LongConsumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code /healthz} (the runtime view as JSON; 503 when a network event loop is wedged) and
 * {@code /readyz} (200 only when the broker serves everything it should) for the kubelet's probes,
 * and {@code /metrics} for Prometheus. Answered on its own thread, never by the runtime it reports
 * on, so a wedged broker answers "not ready" instead of hanging the probe, and its metrics can
 * still be scraped.
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
     * @param report reads the broker's state for each probe
     * @param json    encodes a report as JSON
     * @param metrics {@code /metrics}: the page and its content type
     * @param wedge   with {@code KAAS_TEST_HOOKS}: {@code POST /debug/wedge?ms=N} wedges the event loops for N ms
     */
    public static HealthServer start(String host, int port, Supplier<HealthReport> report,
                                     Function<Object, byte[]> json, MetricsPage metrics, Optional<LongConsumer> wedge)
            throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(host, port), 16);
        ExecutorService thread = Executors.newSingleThreadExecutor(task -> {
            Thread t = new Thread(task, "kaas-health");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(thread);
        server.createContext("/healthz", exchange -> {
            HealthReport r = report.get();
            respond(exchange, r.wedged() ? 503 : 200, json.apply(r.fields()));
        });
        server.createContext("/readyz", exchange -> {
            HealthReport r = report.get();
            boolean ready = r.notReady().isEmpty();
            respond(exchange, ready ? 200 : 503, ready ? "ready\n".getBytes(StandardCharsets.UTF_8)
                    : json.apply(Map.of("not_ready", r.notReady())));
        });
        server.createContext("/metrics", exchange -> respond(exchange, 200, metrics.contentType(), metrics.render().get()));
        wedge.ifPresent(hook -> server.createContext("/debug/wedge", exchange -> {
            try (exchange) {
                String query = Optional.ofNullable(exchange.getRequestURI().getQuery()).orElse("");
                if (!"POST".equals(exchange.getRequestMethod()) || !query.matches("ms=\\d{1,9}")) {
                    exchange.sendResponseHeaders(400, -1);
                    return;
                }
                hook.accept(Long.parseLong(query.substring(3)));
                exchange.sendResponseHeaders(202, -1);
            }
        }));
        server.start();
        LOG.info("health probes on http://{}:{}/healthz and /readyz, metrics on /metrics", host,
                server.getAddress().getPort());
        return new HealthServer(server, thread);
    }

    /** The bound port (useful when 0 asked for an ephemeral one). */
    public int port() {
        return server.getAddress().getPort();
    }

    /** A page that is a Prometheus scrape: rendered afresh for each GET. */
    public record MetricsPage(String contentType, Supplier<byte[]> render) {
    }

    private static void respond(HttpExchange exchange, int status, byte[] body) throws IOException {
        respond(exchange, status, body.length > 0 && body[0] == '{' ? "application/json" : "text/plain", body);
    }

    private static void respond(HttpExchange exchange, int status, String contentType, byte[] body) throws IOException {
        try (exchange; OutputStream out = exchange.getResponseBody()) {
            if (!"GET".equals(exchange.getRequestMethod())) {
                exchange.sendResponseHeaders(405, -1);
                return;
            }
            exchange.getResponseHeaders().set("Content-Type", contentType);
            exchange.sendResponseHeaders(status, body.length);
            out.write(body);
        }
    }

    @Override
    public void close() {
        server.stop(0);
        thread.shutdownNow();
    }
}
