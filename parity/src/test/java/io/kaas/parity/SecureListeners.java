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
 * A parity broker's secured listeners, SASL_SSL with SCRAM-SHA-256, SCRAM-SHA-512, PLAIN and OAUTHBEARER, and mTLS,
 * for the client-*-sasl-*, *-oauthbearer and *-mtls scenarios: {@code parity/security/setup.sh} makes the
 * certificates, the OAuth issuer's key, the listener settings of kaas and of Apache Kafka, and kaas's SCRAM user;
 * this class serves the issuer's JWKS over HTTP (the broker fetches it at startup and validates tokens against it)
 * and hands over the broker's and the scenarios' environment. One per broker: kaas and its Apache peer each get
 * their own ports, certificates and user.
 */
final class SecureListeners implements AutoCloseable {
    private final HttpServer jwks;
    private final Path dir;

    private SecureListeners(HttpServer jwks, Path dir) {
        this.jwks = jwks;
        this.dir = dir;
    }

    /**
     * Prepares them in {@code dir} for a broker whose plaintext listener is {@code plainPort}, the other ports from
     * {@code ports}. {@code setupEnv}: {@code JAVA}, and for kaas {@code KAAS_JAR} and {@code KAAS_DATA_DIR}, where
     * the SCRAM user is written with the broker's own {@code kaas user add} (Apache's: {@link #createScramUser}).
     */
    static SecureListeners prepare(Path parityDir, Path dir, int plainPort, IntSupplier ports,
                                   Map<String, String> setupEnv) throws IOException, InterruptedException {
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
        env.putAll(setupEnv);
        run(setup, dir.resolve("setup.log"));
        return new SecureListeners(jwks, dir);
    }

    /** What kaas needs: {@code KAAS_LISTENERS}. */
    Map<String, String> kaasEnv() throws IOException {
        return Map.of("KAAS_LISTENERS", Files.readString(dir.resolve("listeners.json")));
    }

    /** What Apache Kafka needs over parity/broker.sh's settings: its listeners, their TLS and SASL settings. */
    Path apacheProperties() {
        return dir.resolve("apache.properties");
    }

    /** Creates the SCRAM user on the running Apache broker at {@code bootstrap} (parity/security/scram-user.sh). */
    void createScramUser(Path parityDir, String bootstrap, Map<String, String> toolEnv)
            throws IOException, InterruptedException {
        ProcessBuilder script = new ProcessBuilder("bash", parityDir.resolve("security/scram-user.sh").toString(),
                bootstrap, dir.toString()).redirectErrorStream(true).redirectOutput(dir.resolve("scram-user.log").toFile());
        script.environment().putAll(toolEnv);
        run(script, dir.resolve("scram-user.log"));
    }

    /** What the scenarios need (lib.sh's requires_secure_listener): bootstraps, the CA, the users, the issuer. */
    Map<String, String> scenarioEnv() throws IOException {
        return readEnv(scenarioEnvFile());
    }

    /** The same as KEY=value lines (parity/run.sh --peer-env). */
    Path scenarioEnvFile() {
        return dir.resolve("scenario.env");
    }

    private static void run(ProcessBuilder script, Path log) throws IOException, InterruptedException {
        Process process = script.start();
        assertTrue(process.waitFor(5, TimeUnit.MINUTES), script.command() + " did not finish in 5 minutes");
        assertEquals(0, process.exitValue(), script.command() + " failed; see " + log);
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
