package io.kaas.parity;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A broker the parity suite runs against, as a local process managed by {@code parity/broker.sh}: kaas
 * from its jar, or Apache Kafka 3.7.2 from the parity module's classpath. The script owns the process so
 * that a scenario can restart it through the same script ({@link #restartCommand()}).
 */
final class LocalBroker {
    private final Path script;
    private final Path dir;
    private final int port;
    private final Map<String, String> env;

    private LocalBroker(Path script, Path dir, int port, Map<String, String> env) {
        this.script = script.toAbsolutePath();
        this.dir = dir.toAbsolutePath();
        this.port = port;
        this.env = env;
    }

    /** Starts {@code kind} (kaas or apache) in the background; {@link #awaitStarted()} waits for it. */
    static Starting start(String kind, Path parityDir, Path dir, int port, Map<String, String> env) throws IOException {
        LocalBroker broker = new LocalBroker(parityDir.resolve("broker.sh"), dir, port, env);
        Files.createDirectories(broker.dir);
        Process starting = broker.script("start", kind, Integer.toString(port), broker.dir.toString())
                .redirectOutput(broker.dir.resolve("start.out").toFile())
                .start();
        return new Starting(broker, starting);
    }

    String bootstrap() {
        return "127.0.0.1:" + port;
    }

    /** The shell command that restarts this broker (its data kept), for run.sh --restart. */
    String restartCommand() {
        return "bash '" + script + "' restart '" + dir + "'";
    }

    Path log() {
        return dir.resolve("broker.log");
    }

    void stop() throws IOException, InterruptedException {
        Process stopping = script("stop", dir.toString()).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        if (!stopping.waitFor(2, TimeUnit.MINUTES)) {
            stopping.destroyForcibly();
        }
    }

    private ProcessBuilder script(String... args) {
        List<String> command = new ArrayList<>(List.of("bash", script.toString()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().putAll(env);
        return pb.redirectErrorStream(true);
    }

    /** A broker whose start script is still waiting for it to answer. */
    record Starting(LocalBroker broker, Process script) {
        LocalBroker awaitStarted() throws IOException, InterruptedException {
            Path out = broker.dir.resolve("start.out");
            if (!script.waitFor(3, TimeUnit.MINUTES)) {
                script.destroyForcibly();
                throw new IOException("the broker in " + broker.dir + " did not start in 3 minutes; see " + broker.log());
            }
            if (script.exitValue() != 0) {
                throw new IOException("the broker in " + broker.dir + " did not start: " + Files.readString(out).strip());
            }
            return broker;
        }
    }
}
