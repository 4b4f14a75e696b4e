package io.kaas.bootstrap.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * Apache Kafka 3.7's own shell tools ({@code kafka.admin.ConsumerGroupCommand},
 * {@code kafka.admin.ConfigCommand}, ...) from the jars {@code ../shared/tools/peer-kafka.sh}
 * resolves, each run in a separate JVM as an operator runs it. Where that script is not around,
 * {@link #resolve()} skips the calling test.
 */
public final class ApacheTool {
    private final String classpath;

    private ApacheTool(String classpath) {
        this.classpath = classpath;
    }

    /** The tools' classpath; skips the test (an assumption) when it cannot be resolved. */
    public static ApacheTool resolve() throws IOException, InterruptedException {
        Optional<Path> script = peerScript();
        Assumptions.assumeTrue(script.isPresent(), "shared/tools/peer-kafka.sh is not available");
        String classpath = run(List.of("bash", script.get().toString(), "classpath"), 300).trim();
        Assumptions.assumeTrue(!classpath.isEmpty(), "the Kafka 3.7 tool classpath could not be resolved");
        return new ApacheTool(classpath);
    }

    /** Runs {@code mainClass} with {@code args}; its stdout and stderr together. */
    public String run(String mainClass, List<String> args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", classpath, mainClass));
        command.addAll(args);
        return run(command, 60);
    }

    private static String run(List<String> command, int timeoutSeconds) throws IOException, InterruptedException {
        Path output = Files.createTempFile("tool", ".out");
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
            if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError("timed out: " + command);
            }
            return Files.readString(output, StandardCharsets.UTF_8);
        } finally {
            Files.deleteIfExists(output);
        }
    }

    /** {@code shared/tools/peer-kafka.sh} beside the project (../shared from its root), looked up from here upwards. */
    private static Optional<Path> peerScript() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path script = dir.resolve("shared/tools/peer-kafka.sh");
            if (Files.isRegularFile(script)) {
                return Optional.of(script);
            }
        }
        return Optional.empty();
    }
}
