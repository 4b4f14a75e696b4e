package io.kaas.parity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;

/**
 * The parity broker's secured listeners, SASL_SSL with SCRAM-SHA-256, SCRAM-SHA-512, PLAIN and OAUTHBEARER, and mTLS,
 * for the client-*-sasl-*, *-oauthbearer and *-mtls scenarios: {@code parity/security/setup.sh} makes the
 * certificates, the OAuth issuer's key, the listener JSON and the SCRAM user; this class serves the issuer's
 * JWKS over HTTP (the broker fetches it at startup and validates tokens against it) and hands over the broker's
 * and the scenarios' environment.
 */
final class SecureListeners implements AutoCloseable {
    private final HttpServer jwks;
    private final Map<String, String> brokerEnv;
    private final Map<String, String> scenarioEnv;

    private SecureListeners(HttpServer jwks, Map<String, String> brokerEnv, Map<String, String> scenarioEnv) {
        this.jwks = jwks;
        this.brokerEnv = brokerEnv;
        this.scenarioEnv = scenarioEnv;
    }

    /**
     * Prepares them in {@code dir} for a broker whose plaintext listener is {@code plainPort}, writing the SCRAM
     * user into {@code dataDir} with the broker's own {@code kaas user add}; the other ports from {@code ports}.
     */
    static SecureListeners prepare(Path parityDir, Path dir, int plainPort, IntSupplier ports, Path jar, Path dataDir,
                                   String java) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        HttpServer jwks = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        jwks.createContext("/jwks.json", exchange -> {
            byte[] body = Files.readAllBytes(dir.resolve("jwks.json"));
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        jwks.start();
        Path script = parityDir.resolve("security/setup.sh");
        ProcessBuilder setup = new ProcessBuilder("bash", script.toString(), dir.toString())
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("setup.log").toFile());
        Map<String, String> env = setup.environment();
        env.put("PLAIN_PORT", Integer.toString(plainPort));
        env.put("SCRAM_SHA_256_PORT", Integer.toString(ports.getAsInt()));
        env.put("SCRAM_SHA_512_PORT", Integer.toString(ports.getAsInt()));
        env.put("SASL_PLAIN_PORT", Integer.toString(ports.getAsInt()));
        env.put("OAUTHBEARER_PORT", Integer.toString(ports.getAsInt()));
        env.put("MTLS_PORT", Integer.toString(ports.getAsInt()));
        env.put("JWKS_URL", "http://127.0.0.1:" + jwks.getAddress().getPort() + "/jwks.json");
        env.put("KAAS_JAR", jar.toAbsolutePath().toString());
        env.put("KAAS_DATA_DIR", dataDir.toAbsolutePath().toString());
        env.put("JAVA", java);
        Process process = setup.start();
        assertTrue(process.waitFor(5, TimeUnit.MINUTES), "parity/security/setup.sh did not finish in 5 minutes");
        assertEquals(0, process.exitValue(), "parity/security/setup.sh failed; see " + dir.resolve("setup.log"));
        return new SecureListeners(jwks, Map.of("KAAS_LISTENERS", Files.readString(dir.resolve("listeners.json"))),
                readEnv(dir.resolve("scenario.env")));
    }

    /** What the broker needs: {@code KAAS_LISTENERS}. */
    Map<String, String> brokerEnv() {
        return brokerEnv;
    }

    /** What the scenarios need (lib.sh's requires_secure_listener): bootstraps, the CA, the users, the issuer. */
    Map<String, String> scenarioEnv() {
        return scenarioEnv;
    }

    @Override
    public void close() {
        jwks.stop(0);
    }

    private static Map<String, String> readEnv(Path file) throws IOException {
        Map<String, String> env = new LinkedHashMap<>();
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            int eq = line.indexOf('=');
            if (eq > 0) {
                env.put(line.substring(0, eq), line.substring(eq + 1));
            }
        }
        return env;
    }
}
