package io.kaas.bootstrap;

import io.kaas.adapter.fs.DataLayout;
import io.kaas.adapter.fs.JacksonCodec;
import io.kaas.adapter.fs.JsonCredentialStore;
import io.kaas.adapter.fs.JsonFiles;
import io.kaas.adapter.fs.NioFilesystem;
import io.kaas.application.authentication.CredentialCache;
import io.kaas.application.authentication.UserScramCredentialService;
import io.kaas.domain.security.ScramMechanism;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code ./kaas user add NAME [--mechanism SCRAM-SHA-512|SCRAM-SHA-256] --password PASSWORD
 * [--iterations N]}: writes a SCRAM credential into {@code $KAAS_DATA_DIR/__cluster/credentials.json}
 * and exits, so the first user exists before any broker runs. A running broker serves the user
 * within a second (it re-reads the file). The password is never stored: only the salted, iterated
 * keys of RFC 5802. The mechanism defaults to SCRAM-SHA-512, the iterations to 4096 (Apache's
 * {@code kafka-configs} default).
 */
final class UserCommand {
    static final String USAGE = "usage: kaas user add NAME [--mechanism SCRAM-SHA-512|SCRAM-SHA-256] --password PASSWORD"
            + " [--iterations N]";
    private static final int DEFAULT_ITERATIONS = ScramMechanism.MIN_ITERATIONS;

    private UserCommand() {
    }

    /** Runs the command; the exit status: 0 done, 2 a usage or input problem, 1 the file could not be written. */
    static int run(List<String> args, Map<String, String> env, PrintStream out, PrintStream err) {
        if (args.size() < 2 || !args.get(0).equals("user") || !args.get(1).equals("add")) {
            err.println(USAGE);
            return 2;
        }
        Optional<Request> request = parse(args.subList(2, args.size()), err);
        if (request.isEmpty()) {
            err.println(USAGE);
            return 2;
        }
        Request r = request.get();
        String dir = env.get("KAAS_DATA_DIR");
        DataLayout layout = new DataLayout(Path.of(dir == null || dir.isBlank() ? "kaas-data" : dir.trim()));
        try {
            CredentialCache credentials = CredentialCache.load(
                    new JsonCredentialStore(layout, new JsonFiles(new NioFilesystem(), new JacksonCodec())));
            new UserScramCredentialService(credentials, true).setPassword(r.name(), r.mechanism(), r.password(),
                    r.iterations());
        } catch (IllegalArgumentException e) {
            err.println("kaas user add: " + e.getMessage());
            return 2;
        } catch (UncheckedIOException e) {
            err.println("kaas user add: cannot write " + layout.credentialsFile().toAbsolutePath() + ": " + e.getMessage());
            return 1;
        }
        out.println("user " + r.name() + ": " + r.mechanism().mechanismName() + " credential (" + r.iterations()
                + " iterations) written to " + layout.credentialsFile().toAbsolutePath());
        return 0;
    }

    private record Request(String name, ScramMechanism mechanism, String password, int iterations) {
    }

    private static Optional<Request> parse(List<String> args, PrintStream err) {
        String name = null;
        ScramMechanism mechanism = ScramMechanism.SCRAM_SHA_512;
        String password = null;
        int iterations = DEFAULT_ITERATIONS;
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            if (!arg.startsWith("--")) {
                if (name != null) {
                    err.println("kaas user add: one user at a time (got " + name + " and " + arg + ")");
                    return Optional.empty();
                }
                name = arg;
                continue;
            }
            if (i + 1 >= args.size()) {
                err.println("kaas user add: " + arg + " needs a value");
                return Optional.empty();
            }
            String value = args.get(++i);
            switch (arg) {
                case "--mechanism" -> {
                    Optional<ScramMechanism> named = ScramMechanism.byName(value);
                    if (named.isEmpty()) {
                        err.println("kaas user add: --mechanism must be one of " + Arrays.stream(ScramMechanism.values())
                                .map(ScramMechanism::mechanismName).toList() + ", got " + value);
                        return Optional.empty();
                    }
                    mechanism = named.get();
                }
                case "--password" -> password = value;
                case "--iterations" -> {
                    try {
                        iterations = Integer.parseInt(value);
                    } catch (NumberFormatException e) {
                        err.println("kaas user add: --iterations must be a number, got " + value);
                        return Optional.empty();
                    }
                }
                default -> {
                    err.println("kaas user add: unknown option " + arg);
                    return Optional.empty();
                }
            }
        }
        if (name == null || password == null) {
            err.println("kaas user add: " + (name == null ? "NAME" : "--password") + " is required");
            return Optional.empty();
        }
        return Optional.of(new Request(name, mechanism, password, iterations));
    }
}
