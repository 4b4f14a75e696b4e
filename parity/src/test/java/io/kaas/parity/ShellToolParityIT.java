package io.kaas.parity;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Runs every scenario of {@code parity/run.sh} (Apache Kafka 3.7's shell tools and the non-Java
 * clients) against a fresh standalone kaas broker started from {@code bootstrap/target/kaas.jar},
 * then compares each result with {@code parity/baseline.tsv}: a tool that passed there and does not
 * pass now fails the build. A client that is not installed (ABSENT) fails it only in CI
 * ({@code CI=true}, where {@code .ci/run} installs every client); elsewhere it is reported.
 */
class ShellToolParityIT {
    private static final Path PARITY_DIR = Path.of(System.getProperty("parity.dir", "."));
    private static final Path WORK = Path.of(System.getProperty("parity.work", "target/parity"));

    private Process broker;
    private SecureListeners secure;

    @BeforeEach
    void startBroker() throws IOException, InterruptedException {
        Path jar = Path.of(System.getProperty("kaas.jar", "../bootstrap/target/kaas.jar"));
        assertTrue(Files.isRegularFile(jar), jar + " is missing: build the broker first (mvn -B verify from the root)");
        deleteTree(WORK);
        Files.createDirectories(WORK);
        int port = freePort();
        // SASL_SSL listeners (SCRAM-SHA-256/512, PLAIN, OAUTHBEARER) and mTLS beside the plaintext one on KAAS_PORT
        secure = SecureListeners.prepare(PARITY_DIR, WORK.resolve("security"), port, ShellToolParityIT::freePort, jar,
                WORK.resolve("data"), javaBinary());
        ProcessBuilder pb = new ProcessBuilder(javaBinary(), "-Xmx1g", "-jar", jar.toAbsolutePath().toString())
                .redirectErrorStream(true)
                .redirectOutput(WORK.resolve("kaas.log").toFile());
        pb.environment().put("KAAS_PORT", Integer.toString(port));
        pb.environment().put("KAAS_HEALTH_PORT", "0");
        pb.environment().put("KAAS_DATA_DIR", WORK.resolve("data").toString());
        // a second log dir: partitions spread over both, and kafka-reassign-partitions-log-dirs moves one across
        pb.environment().put("KAAS_LOG_DIRS", "bulk=" + WORK.resolve("bulk"));
        pb.environment().put("KAAS_GROUP_INITIAL_REBALANCE_DELAY_MS", "0");
        // ACLs evaluated, as on a secured Apache broker, with the tools' principal (ANONYMOUS: no SASL here) a
        // super user: every tool works, and kafka-acls manages ACLs instead of hearing "No Authorizer is configured".
        pb.environment().put("KAAS_AUTHORIZATION_TYPE", "simple");
        pb.environment().put("KAAS_SUPER_USERS", "User:ANONYMOUS");
        pb.environment().putAll(secure.brokerEnv());
        broker = pb.start();
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                .until(() -> !broker.isAlive() || accepts(port));
        assertTrue(broker.isAlive(), "kaas exited at startup; see " + WORK.resolve("kaas.log"));
        System.setProperty("parity.bootstrap", "127.0.0.1:" + port);
    }

    @AfterEach
    void stopBroker() throws InterruptedException {
        if (broker != null) {
            broker.destroy();
            if (!broker.waitFor(20, TimeUnit.SECONDS)) {
                broker.destroyForcibly();
            }
        }
        if (secure != null) {
            secure.close();
        }
    }

    @Test
    void everyToolThatPassedStillPasses() throws IOException, InterruptedException {
        Path report = WORK.resolve("report.tsv");
        ProcessBuilder pb = new ProcessBuilder("bash", PARITY_DIR.resolve("run.sh").toString(),
                "--bootstrap", System.getProperty("parity.bootstrap"), "--report", report.toString())
                .redirectErrorStream(true)
                .redirectOutput(WORK.resolve("run.out").toFile());
        pb.environment().put("KAFKA_CP", Files.readString(Path.of(System.getProperty("parity.classpath"))).trim());
        pb.environment().put("JAVA", javaBinary());
        pb.environment().put("WORK", WORK.toAbsolutePath().toString());
        pb.environment().putAll(secure.scenarioEnv());
        Process run = pb.start();
        assertTrue(run.waitFor(20, TimeUnit.MINUTES), "the parity run did not finish in 20 minutes");
        System.out.println("Apache Kafka 3.7 shell tools and non-Java clients against kaas:");
        Files.readAllLines(WORK.resolve("run.out"), StandardCharsets.UTF_8).forEach(System.out::println);

        Map<String, String> expected = read(PARITY_DIR.resolve("baseline.tsv"));
        Map<String, String> actual = read(report);
        List<String> regressions = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        boolean clientsRequired = "true".equals(System.getenv("CI"));
        for (String tool : new TreeSet<>(union(expected, actual))) {
            String was = expected.get(tool);
            String now = actual.get(tool);
            if (now == null) {
                regressions.add(tool + ": in the baseline but no scenario ran");
            } else if (was == null) {
                regressions.add(tool + ": " + now + " but missing from parity/baseline.tsv");
            } else if (was.equals("PASS") && now.equals("ABSENT") && !clientsRequired) {
                notes.add(tool + ": not installed here, not run (CI installs it: see .ci/run)");
            } else if (was.equals("PASS") && !now.equals("PASS")) {
                regressions.add(tool + ": was PASS, now " + now);
            } else if (!was.equals(now)) {
                notes.add(tool + ": " + was + " -> " + now + " (update parity/baseline.tsv)");
            }
        }
        System.out.println("parity baseline comparison: " + regressions.size() + " regression(s)");
        notes.forEach(n -> System.out.println("  changed: " + n));
        regressions.forEach(r -> System.out.println("  REGRESSION: " + r));
        if (!regressions.isEmpty()) {
            fail("shell-tool parity regressed:\n  " + String.join("\n  ", regressions)
                    + "\n(scenario logs: " + WORK.toAbsolutePath() + ")");
        }
    }

    /** tool -> PASS/FAIL/SKIP from a tab-separated file; blank lines and # comments ignored. */
    private static Map<String, String> read(Path file) throws IOException {
        Map<String, String> results = new LinkedHashMap<>();
        if (!Files.exists(file)) {
            return results;
        }
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] cols = line.split("\t");
            results.put(cols[0].trim(), cols.length > 1 ? cols[1].trim() : "");
        }
        return results;
    }

    private static TreeSet<String> union(Map<String, String> a, Map<String, String> b) {
        TreeSet<String> all = new TreeSet<>(a.keySet());
        all.addAll(b.keySet());
        return all;
    }

    private static boolean accepts(int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 200);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static int freePort() {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String javaBinary() {
        return ProcessHandle.current().info().command().orElse("java");
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (var paths = Files.walk(root)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
