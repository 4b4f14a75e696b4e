package io.kaas.bootstrap.testing;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.config.SaslConfigs;
import org.awaitility.Awaitility;

/**
 * A cluster of real broker processes on this machine, driven through {@code dev/cluster.sh} exactly
 * as a developer drives it: a development API server standing in for Kubernetes, the operator and N
 * {@code kaas.jar} processes sharing one volume. Closing it stops everything.
 */
public final class LocalCluster implements AutoCloseable {
    private static final Path SCRIPT = repositoryRoot().resolve("dev/cluster.sh");
    private static final Duration VERB_TIMEOUT = Duration.ofMinutes(3);

    private final Path dir;
    private final PortBlock ports;
    private final String bootstrapServers;
    private final Map<String, String> environment;

    private LocalCluster(Path dir, PortBlock ports, String bootstrapServers, Map<String, String> environment) {
        this.dir = dir;
        this.ports = ports;
        this.bootstrapServers = bootstrapServers;
        this.environment = environment;
    }

    /** Starts {@code brokers} brokers in {@code dir}; returns once every one answers /readyz with 200. */
    public static LocalCluster start(int brokers, Path dir) {
        return start(brokers, dir, Map.of());
    }

    /**
     * Starts {@code brokers} brokers in {@code dir} with {@code environment} added to theirs and the operator's (the
     * script passes on {@code KAAS_*} variables); returns once every one answers /readyz with 200.
     */
    public static LocalCluster start(int brokers, Path dir, Map<String, String> environment) {
        PortBlock ports = PortBlock.reserve(brokers);
        LocalCluster starting = new LocalCluster(dir, ports, "", environment);
        try {
            List<String> out = run(dir, environment, "start", Integer.toString(brokers), dir.toString(),
                    Integer.toString(ports.base()));
            LocalCluster cluster = new LocalCluster(dir, ports, out.get(out.size() - 1).trim(), environment);
            cluster.awaitEveryBrokerSeesAll(brokers);
            return cluster;
        } catch (IllegalStateException e) {
            StringBuilder logs = new StringBuilder(e.getMessage());
            for (int id = 0; id < brokers; id++) {
                List<String> lines = starting.log(id).lines().toList();
                logs.append("\n--- broker ").append(id).append(", last lines:\n")
                        .append(String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size())));
            }
            starting.close();
            throw new IllegalStateException(logs.toString(), e);
        }
    }

    /**
     * Ready is not yet formed: a broker's registry follows the EndpointSlices a moment behind, and a client whose
     * first Metadata lists fewer brokers keeps that list (the Java Admin 3.7 never bootstraps again), so a test that
     * later kills the one broker it knows strands it. Returns once every broker names all of them.
     */
    private void awaitEveryBrokerSeesAll(int brokers) {
        for (int id = 0; id < brokers; id++) {
            int broker = id;
            Awaitility.await("broker " + broker + " lists all " + brokers + " brokers").atMost(VERB_TIMEOUT)
                    .pollInterval(Duration.ofMillis(200)).until(() -> brokersSeenBy(broker) == brokers);
        }
    }

    /** How many brokers broker {@code id}'s Metadata lists; 0 when it does not answer. */
    private int brokersSeenBy(int id) {
        return brokersListedBy(id).size();
    }

    /**
     * The ids of the brokers broker {@code id}'s Metadata lists (what a client bootstrapping from it will connect to);
     * empty when it does not answer within 10 s.
     */
    public Set<Integer> brokersListedBy(int id) {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + kafkaPort(id),
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 5_000, AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000))) {
            return admin.describeCluster().nodes().get(10, TimeUnit.SECONDS).stream().map(Node::id)
                    .collect(Collectors.toSet());
        } catch (ExecutionException | TimeoutException e) {
            return Set.of();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public String bootstrapServers() {
        return bootstrapServers;
    }

    /** The Kafka port of broker {@code id}. */
    public int kafkaPort(int id) {
        return ports.base() + id;
    }

    /** The port of broker {@code id}'s second listener: SASL_PLAINTEXT, SCRAM-SHA-512 (the KafkaUsers' credentials). */
    public int saslPort(int id) {
        return ports.base() + 400 + id;
    }

    /** The bootstrap list of the SCRAM-SHA-512 listeners. */
    public String saslBootstrapServers() {
        return java.util.stream.IntStream.range(0, bootstrapServers.split(",").length)
                .mapToObj(id -> "127.0.0.1:" + saslPort(id)).collect(Collectors.joining(","));
    }

    /** SIGKILLs a broker. */
    public void kill(int id) {
        run(dir, environment, "kill", dir.toString(), Integer.toString(id));
    }

    /** Starts a killed (or terminated) broker again and waits for its readiness. */
    public void restart(int id) {
        run(dir, environment, "restart", dir.toString(), Integer.toString(id));
    }

    /** Stops (stop) or brings back (start) the API server. */
    public void apiServer(String verb) {
        run(dir, environment, "api", dir.toString(), verb);
    }

    /** Where the development API server listens (plain HTTP, namespace {@code default}), for a Kubernetes client. */
    public String apiServerUrl() {
        return "http://127.0.0.1:" + (ports.base() + 300);
    }

    /** A client of the development API server (namespace {@code default}, where the cluster's resources are). */
    public KubernetesClient kubernetesClient() {
        return new KubernetesClientBuilder().withConfig(new ConfigBuilder(Config.empty())
                .withMasterUrl(apiServerUrl()).withNamespace("default").withHttp2Disable(true).build()).build();
    }

    /** Client settings for {@code user} on the SCRAM-SHA-512 listeners ({@link #saslBootstrapServers()}). */
    public Map<String, Object> scramClient(String user, String password) {
        return Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, saslBootstrapServers(),
                CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SASL_PLAINTEXT",
                SaslConfigs.SASL_MECHANISM, "SCRAM-SHA-512",
                SaslConfigs.SASL_JAAS_CONFIG, "org.apache.kafka.common.security.scram.ScramLoginModule required "
                        + "username=\"" + user + "\" password=\"" + password + "\";");
    }

    /** The kubeconfig {@code dev/cluster.sh} wrote for the development API server, for kubectl. */
    public Path kubeconfig() {
        return dir.resolve("kubeconfig");
    }

    /** The volume every broker shares. */
    public Path volume() {
        return dir.resolve("volume");
    }

    /** The bootstrap list without broker {@code id} (for clients that must not wait on it). */
    public String bootstrapServersWithout(int id) {
        return java.util.Arrays.stream(bootstrapServers.split(",")).filter(s -> !s.endsWith(":" + kafkaPort(id)))
                .collect(Collectors.joining(","));
    }

    /** Sends a signal to a broker's process ({@code STOP}, {@code CONT}, {@code TERM}): what a GC pause or a kubelet does. */
    public void signal(int id, String signal) {
        try {
            String pid = Files.readString(dir.resolve("broker-" + id + ".pid")).trim();
            Process kill = new ProcessBuilder("kill", "-" + signal, pid).inheritIO().start();
            if (kill.waitFor() != 0) {
                throw new IllegalStateException("kill -" + signal + " " + pid + " failed");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** SIGTERMs a broker, as a kubelet stopping its pod does, and waits until it has drained and exited. */
    public void terminate(int id, Duration deadline) {
        try {
            long pid = Long.parseLong(Files.readString(dir.resolve("broker-" + id + ".pid")).trim());
            Optional<ProcessHandle> process = ProcessHandle.of(pid);
            signal(id, "TERM");
            if (process.isPresent()) {
                process.get().onExit().get(deadline.toMillis(), TimeUnit.MILLISECONDS);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("broker " + id + " did not exit within " + deadline + " of SIGTERM", e);
        }
    }

    /** Blocks every network event loop of a broker for {@code duration}: a broker alive but wedged. */
    public void wedge(int id, Duration duration) {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + (ports.base() + 200 + id)
                + "/debug/wedge?ms=" + duration.toMillis())).POST(HttpRequest.BodyPublishers.noBody()).build();
        try {
            int status = HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
            if (status != 202) {
                throw new IllegalStateException("broker " + id + " refused the wedge hook: HTTP " + status);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The broker's log so far, for failure messages. */
    public String log(int id) {
        try {
            return Files.readString(dir.resolve("broker-" + id + ".log"), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    /** Stops the cluster and keeps its logs under {@code target/local-cluster-logs/} for failure analysis. */
    @Override
    public void close() {
        try {
            run(dir, environment, "stop", dir.toString());
        } finally {
            keepLogs();
            ports.close();
        }
    }

    private void keepLogs() {
        Path kept = Path.of("target", "local-cluster-logs", "cluster-" + ports.base() + "-" + System.currentTimeMillis());
        try (var files = Files.list(dir)) {
            Files.createDirectories(kept);
            for (Path file : files.filter(f -> f.getFileName().toString().endsWith(".log")).toList()) {
                Files.copy(file, kept.resolve(file.getFileName()));
            }
        } catch (IOException e) {
            System.err.println("could not keep the cluster's logs: " + e);
        }
    }

    private static List<String> run(Path dir, Map<String, String> environment, String... args) {
        List<String> command = new ArrayList<>(List.of("bash", SCRIPT.toString()));
        command.addAll(List.of(args));
        try {
            Files.createDirectories(dir);
            Path output = Files.createTempFile(dir, "cluster-sh-", ".out");
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile());
            builder.environment().putAll(environment);
            builder.environment().put("KAAS_TEST_HOOKS", "true"); // see wedge()
            Process process = builder.start();
            if (!process.waitFor(VERB_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException("dev/cluster.sh " + String.join(" ", args) + " did not finish in "
                        + VERB_TIMEOUT + ": " + Files.readString(output));
            }
            List<String> lines = Files.readAllLines(output);
            if (process.exitValue() != 0) {
                throw new IllegalStateException("dev/cluster.sh " + String.join(" ", args) + " failed: "
                        + String.join("\n", lines));
            }
            return lines;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The repository's root directory (where {@code dev/cluster.sh} is). */
    public static Path repositoryRoot() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.exists(dir.resolve("dev/cluster.sh"))) {
            dir = dir.getParent();
        }
        if (dir == null) {
            throw new IllegalStateException("dev/cluster.sh not found above " + Path.of("").toAbsolutePath());
        }
        return dir;
    }
}
