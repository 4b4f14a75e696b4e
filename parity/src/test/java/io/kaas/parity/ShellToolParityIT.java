package io.kaas.parity;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Runs every scenario of {@code parity/run.sh} (Apache Kafka 3.7's shell tools and the non-Java clients)
 * against a fresh standalone kaas broker started from {@code bootstrap/target/kaas.jar}, and those that
 * {@code parity.peer.only} matches (the cross-client {@code client-.*} ones) against a fresh Apache Kafka
 * 3.7.2 broker from this module's classpath too; both are local processes that a scenario can restart
 * ({@code parity/broker.sh}), each with secured listeners of its own ({@link SecureListeners}). Then {@link ParityGate} compares the results with {@code parity/baseline.tsv}:
 * a scenario that passed there on kaas and does not pass now fails the build, unless it fails on Apache
 * in the same run too. A client that is not installed (ABSENT) fails it only in CI ({@code CI=true},
 * where {@code .ci/run} installs every client); elsewhere it is reported.
 */
class ShellToolParityIT {
    private static final Path PARITY_DIR = Path.of(System.getProperty("parity.dir", "."));
    private static final Path WORK = Path.of(System.getProperty("parity.work", "target/parity"));
    /** Scenarios also run against Apache; blank: none (no Apache broker started). */
    private static final String PEER_ONLY = System.getProperty("parity.peer.only", "client-.*").trim();

    private final List<LocalBroker> brokers = new ArrayList<>();
    private LocalBroker kaas;
    private LocalBroker apache;
    private final List<SecureListeners> secured = new ArrayList<>();
    private SecureListeners apacheSecure;
    /** Ports handed out and maybe not bound yet: never handed out twice. */
    private final Set<Integer> ports = new HashSet<>();
    private Map<String, String> secureEnv;

    @BeforeEach
    void startBrokers() throws IOException, InterruptedException {
        Path jar = Path.of(System.getProperty("kaas.jar", "../bootstrap/target/kaas.jar"));
        assertTrue(Files.isRegularFile(jar), jar + " is missing: build the broker first (mvn -B verify from the root)");
        deleteTree(WORK);
        Files.createDirectories(WORK);
        Map<String, String> env = Map.of("JAVA", javaBinary(), "KAAS_JAR", jar.toAbsolutePath().toString(),
                "KAFKA_CP", toolClasspath());
        int kaasPort = freePort();
        Path kaasDir = WORK.resolve("kaas");
        // SASL_SSL listeners (SCRAM-SHA-256/512, PLAIN, OAUTHBEARER) and mTLS beside the plaintext one; broker.sh
        // starts kaas with the variables of extra.env (Apache with extra.properties), and again after each restart
        SecureListeners kaasSecure = secure(WORK.resolve("security"), kaasPort, Map.of("JAVA", javaBinary(),
                "KAAS_JAR", jar.toAbsolutePath().toString(),
                "KAAS_DATA_DIR", kaasDir.resolve("data").toAbsolutePath().toString()));
        Files.createDirectories(kaasDir);
        Files.writeString(kaasDir.resolve("extra.env"), shellAssignments(kaasSecure.kaasEnv()));
        secureEnv = kaasSecure.scenarioEnv();
        // both start at once: Apache takes about as long as kaas again
        LocalBroker.Starting kaasStarting = LocalBroker.start("kaas", PARITY_DIR, kaasDir, kaasPort, env);
        LocalBroker.Starting apacheStarting = null;
        if (!PEER_ONLY.isEmpty()) {
            int apachePort = freePortPair();
            Path apacheDir = Files.createDirectories(WORK.resolve("apache"));
            apacheSecure = secure(WORK.resolve("apache-security"), apachePort, Map.of("JAVA", javaBinary()));
            Files.copy(apacheSecure.apacheProperties(), apacheDir.resolve("extra.properties"));
            apacheStarting = LocalBroker.start("apache", PARITY_DIR, apacheDir, apachePort, env);
        }
        kaas = started(kaasStarting);
        if (apacheStarting != null) {
            apache = started(apacheStarting);
            apacheSecure.createScramUser(PARITY_DIR, apache.bootstrap(), env);
        }
    }

    private SecureListeners secure(Path dir, int plainPort, Map<String, String> setupEnv)
            throws IOException, InterruptedException {
        SecureListeners listeners = SecureListeners.prepare(PARITY_DIR, dir, plainPort, this::freePort, setupEnv);
        secured.add(listeners);
        return listeners;
    }

    @AfterEach
    void stopBrokers() throws IOException, InterruptedException {
        for (LocalBroker broker : brokers) {
            broker.stop();
        }
        secured.forEach(SecureListeners::close);
    }

    @Test
    void everyScenarioThatPassedStillPasses() throws IOException, InterruptedException {
        Path report = WORK.resolve("report.tsv");
        List<String> command = new ArrayList<>(List.of("bash", PARITY_DIR.resolve("run.sh").toString(),
                "--bootstrap", kaas.bootstrap(), "--restart", kaas.restartCommand(), "--report", report.toString()));
        if (apache != null) {
            command.addAll(List.of("--peer", apache.bootstrap(), "--peer-restart", apache.restartCommand(),
                    "--peer-only", PEER_ONLY, "--peer-env", apacheSecure.scenarioEnvFile().toString()));
        }
        ProcessBuilder pb = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(WORK.resolve("run.out").toFile());
        pb.environment().put("KAFKA_CP", toolClasspath());
        pb.environment().put("JAVA", javaBinary());
        pb.environment().put("WORK", WORK.toAbsolutePath().toString());
        pb.environment().putAll(secureEnv);
        Process run = pb.start();
        assertTrue(run.waitFor(25, TimeUnit.MINUTES), "the parity run did not finish in 25 minutes");
        System.out.println("Apache Kafka 3.7 shell tools and non-Java clients against kaas"
                + (apache == null ? ":" : " (here) and Apache Kafka 3.7.2 (peer, scenarios matching " + PEER_ONLY + "):"));
        Files.readAllLines(WORK.resolve("run.out"), StandardCharsets.UTF_8).forEach(System.out::println);

        ParityGate.Verdict verdict = ParityGate.compare(ParityGate.readBaseline(PARITY_DIR.resolve("baseline.tsv")),
                ParityGate.readReport(report), apache != null, "true".equals(System.getenv("CI")));
        System.out.println("parity baseline comparison: " + verdict.regressions().size() + " regression(s)");
        verdict.notes().forEach(n -> System.out.println("  changed: " + n));
        verdict.regressions().forEach(r -> System.out.println("  REGRESSION: " + r));
        if (!verdict.regressions().isEmpty()) {
            fail("shell-tool parity regressed:\n  " + String.join("\n  ", verdict.regressions())
                    + "\n(scenario logs: " + WORK.toAbsolutePath() + ")");
        }
    }

    private LocalBroker started(LocalBroker.Starting starting) throws IOException, InterruptedException {
        brokers.add(starting.broker()); // stopped afterwards even if it never answered
        return starting.awaitStarted();
    }

    private static String toolClasspath() throws IOException {
        return Files.readString(Path.of(System.getProperty("parity.classpath"))).trim();
    }

    private int freePort() {
        while (true) {
            try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                if (ports.add(s.getLocalPort())) {
                    return s.getLocalPort();
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** {@code NAME='value'} lines a shell can source, single quotes escaped. */
    private static String shellAssignments(Map<String, String> variables) {
        StringBuilder out = new StringBuilder();
        variables.forEach((name, value) -> out.append(name).append("='").append(value.replace("'", "'\\''"))
                .append("'\n"));
        return out.toString();
    }

    /** A free port whose successor is free too: Apache's controller listens on PORT+1. */
    private int freePortPair() {
        while (true) {
            try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                    ServerSocket next = new ServerSocket(s.getLocalPort() + 1, 1, InetAddress.getLoopbackAddress())) {
                if (!ports.contains(s.getLocalPort()) && !ports.contains(next.getLocalPort())) {
                    ports.add(s.getLocalPort());
                    ports.add(next.getLocalPort());
                    return s.getLocalPort();
                }
            } catch (IOException | IllegalArgumentException taken) {
                // the successor is in use (or the port was the last one): try another pair
            }
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
