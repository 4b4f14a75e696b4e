package io.kaas.bootstrap;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A standalone broker in its own JVM ({@code java -cp <test classpath> io.kaas.bootstrap.KaasMain}),
 * configured through environment variables, so a test can {@code kill -9} it.
 */
final class ChildBroker implements AutoCloseable {
    private static final Pattern LISTENING = Pattern.compile("listening on [^ ]+:(\\d+)");
    private static final Pattern HEALTH = Pattern.compile("health probes on http://[^:]+:(\\d+)/healthz");

    private final Process process;
    private final Path log;
    private final int port;

    private ChildBroker(Process process, Path log, int port) {
        this.process = process;
        this.log = log;
        this.port = port;
    }

    static ChildBroker start(Path dataDir, Path logFile, Map<String, String> env, String... jvmOptions)
            throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        // Failsafe may hand the fork a manifest-only jar as java.class.path; it names the real classpath either way.
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> command = new ArrayList<>(List.of(java, "-Xmx256m"));
        command.addAll(List.of(jvmOptions));
        command.addAll(List.of("-cp", classpath, KaasMain.class.getName()));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().put("KAAS_PORT", "0");
        builder.environment().put("KAAS_HEALTH_PORT", "0");
        builder.environment().put("KAAS_BIND_HOST", "127.0.0.1");
        builder.environment().put("KAAS_DATA_DIR", dataDir.toString());
        builder.environment().putAll(env);
        builder.redirectErrorStream(true);
        builder.redirectOutput(logFile.toFile());
        Process process = builder.start();
        int[] port = {-1};
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            if (!process.isAlive()) {
                throw new IllegalStateException("the broker exited with " + process.exitValue() + ":\n" + read(logFile));
            }
            Matcher m = LISTENING.matcher(read(logFile));
            if (m.find()) {
                port[0] = Integer.parseInt(m.group(1));
            }
            return port[0] > 0;
        });
        return new ChildBroker(process, logFile, port[0]);
    }

    private static String read(Path file) throws IOException {
        return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
    }

    /** The health port ({@code /metrics}), from the line the broker logs when its health server is up. */
    int healthPort() throws IOException {
        Matcher m = HEALTH.matcher(output());
        if (!m.find()) {
            throw new IllegalStateException("the broker logged no health port:\n" + output());
        }
        return Integer.parseInt(m.group(1));
    }

    String bootstrapServers() {
        return "127.0.0.1:" + port;
    }

    /** SIGKILL: no shutdown hook runs, nothing is closed or flushed by the broker. */
    void kill9() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the broker did not die");
        }
    }

    String output() throws IOException {
        return read(log);
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            kill9();
        }
    }
}
