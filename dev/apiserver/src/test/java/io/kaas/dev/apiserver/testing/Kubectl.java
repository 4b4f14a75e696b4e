package io.kaas.dev.apiserver.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The real kubectl binary, run against one kubeconfig with its own HOME (so its discovery cache is this test's own).
 * Shared with the cluster tests of the bootstrap module through this module's test-jar.
 */
public final class Kubectl {
    private static final long TIMEOUT_SECONDS = 60;

    private final Path binary;
    private final Path kubeconfig;
    private final Path home;

    public Kubectl(Path binary, Path kubeconfig, Path home) {
        this.binary = binary;
        this.kubeconfig = kubeconfig;
        this.home = home;
    }

    /** kubectl from {@code -Dkaas.kubectl}, {@code $KUBECTL}, the PATH, /usr/bin or /usr/local/bin, if any. */
    public static Optional<Path> find() {
        List<Path> candidates = new ArrayList<>();
        Stream.of(System.getProperty("kaas.kubectl"), System.getenv("KUBECTL")).filter(p -> p != null && !p.isBlank())
                .map(Path::of).forEach(candidates::add);
        String path = System.getenv("PATH");
        if (path != null) {
            for (String dir : path.split(java.io.File.pathSeparator)) {
                if (!dir.isBlank()) {
                    candidates.add(Path.of(dir, "kubectl"));
                }
            }
        }
        candidates.add(Path.of("/usr/bin/kubectl"));
        candidates.add(Path.of("/usr/local/bin/kubectl"));
        return candidates.stream().filter(p -> Files.isRegularFile(p) && Files.isExecutable(p)).findFirst();
    }

    public record Result(int exitCode, String stdout, String stderr) {
        /** The exit code and both outputs, for failure messages. */
        @Override
        public String toString() {
            return "exit " + exitCode + "\n--- stdout\n" + stdout + "--- stderr\n" + stderr;
        }
    }

    /** Runs {@code kubectl args...} to completion. */
    public Result run(String... args) {
        Process process = start(args);
        try {
            if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException("kubectl " + String.join(" ", args) + " did not finish in "
                        + TIMEOUT_SECONDS + " s");
            }
            return new Result(process.exitValue(),
                    new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8),
                    new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** kubectl's table output as cells: columns are separated by at least two spaces. */
    public static List<List<String>> table(String output) {
        return output.lines().filter(line -> !line.isBlank()).map(line -> Arrays.asList(line.trim().split("\\s{2,}")))
                .toList();
    }

    /** Runs {@code kubectl args...} in the background; its standard output lines collect as they come. */
    public Background background(String... args) {
        return new Background(start(args));
    }

    private Process start(String... args) {
        List<String> command = new ArrayList<>();
        command.add(binary.toString());
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().put("KUBECONFIG", kubeconfig.toString());
        builder.environment().put("HOME", home.toString());
        try {
            return builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A kubectl still running (a watch, a wait), read line by line. */
    public static final class Background implements AutoCloseable {
        private final Process process;
        private final List<String> lines = new CopyOnWriteArrayList<>();
        private final StringBuilder errors = new StringBuilder();

        private Background(Process process) {
            this.process = process;
            Thread out = new Thread(() -> read(process.getInputStream(), lines::add), "kubectl-stdout");
            Thread err = new Thread(() -> read(process.getErrorStream(), line -> {
                synchronized (errors) {
                    errors.append(line).append('\n');
                }
            }), "kubectl-stderr");
            out.setDaemon(true);
            err.setDaemon(true);
            out.start();
            err.start();
        }

        public List<String> lines() {
            return List.copyOf(lines);
        }

        public String errors() {
            synchronized (errors) {
                return errors.toString();
            }
        }

        public Process process() {
            return process;
        }

        @Override
        public void close() {
            process.destroyForcibly();
        }

        private static void read(java.io.InputStream stream, java.util.function.Consumer<String> sink) {
            try (BufferedReader reader = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
                for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                    sink.accept(line);
                }
            } catch (IOException e) {
                // the process was destroyed: the stream ends here
            }
        }
    }
}
