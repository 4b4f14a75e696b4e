package io.kaas.bootstrap;

import io.kaas.adapter.fs.DataLayout;
import io.kaas.adapter.fs.JacksonCodec;
import io.kaas.adapter.fs.JsonCredentialStore;
import io.kaas.adapter.fs.JsonFiles;
import io.kaas.adapter.fs.NioFilesystem;
import io.kaas.application.authentication.CredentialCache;
import io.kaas.application.authentication.StoredUserWriter;
import io.kaas.application.authentication.UserScramCredentialService;
import io.kaas.domain.security.ScramMechanism;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

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
    private static final int SALT_BYTES = 32;

    private UserCommand() {
    }

    /**
     * Runs the command, reporting to {@code out} and problems to {@code err}; the exit status: 0 done, 2 a usage or
     * input problem, 1 the file could not be written.
     */
    static int run(List<String> args, Map<String, String> env, Consumer<String> out, Consumer<String> err) {
        if (args.size() < 2 || !args.get(0).equals("user") || !args.get(1).equals("add")) {
            err.accept(USAGE);
            return 2;
        }
        Optional<Request> request = parse(args.subList(2, args.size()), err);
        if (request.isEmpty()) {
            err.accept(USAGE);
            return 2;
        }
        Request r = request.get();
        String dir = env.get("KAAS_DATA_DIR");
        DataLayout layout = new DataLayout(Path.of(dir == null || dir.isBlank() ? "kaas-data" : dir.trim()));
        try {
            CredentialCache credentials = CredentialCache.load(
                    new JsonCredentialStore(layout, new JsonFiles(new NioFilesystem(), new JacksonCodec())));
            new UserScramCredentialService(credentials, new StoredUserWriter(credentials)).setPassword(r.name(), r.mechanism(), r.password(),
                    freshSalt(), r.iterations());
        } catch (IllegalArgumentException e) {
            err.accept("kaas user add: " + e.getMessage());
            return 2;
        } catch (UncheckedIOException e) {
            err.accept("kaas user add: cannot write " + layout.credentialsFile().toAbsolutePath() + ": " + e.getMessage());
            return 1;
        }
        out.accept("user " + r.name() + ": " + r.mechanism().mechanismName() + " credential (" + r.iterations()
                + " iterations) written to " + layout.credentialsFile().toAbsolutePath());
        return 0;
    }

    /** A new random salt per credential, as long as Apache's SCRAM salts are at most. */
    private static byte[] freshSalt() {
        byte[] salt = new byte[SALT_BYTES];
        new SecureRandom().nextBytes(salt);
        return salt;
    }

    private record Request(String name, ScramMechanism mechanism, String password, int iterations) {
    }

    private static Optional<Request> parse(List<String> args, Consumer<String> err) {
        String name = null;
        ScramMechanism mechanism = ScramMechanism.SCRAM_SHA_512;
        String password = null;
        int iterations = DEFAULT_ITERATIONS;
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            if (!arg.startsWith("--")) {
                if (name != null) {
                    err.accept("kaas user add: one user at a time (got " + name + " and " + arg + ")");
                    return Optional.empty();
                }
                name = arg;
                continue;
            }
            if (i + 1 >= args.size()) {
                err.accept("kaas user add: " + arg + " needs a value");
                return Optional.empty();
            }
            String value = args.get(++i);
            switch (arg) {
                case "--mechanism" -> {
                    Optional<ScramMechanism> named = ScramMechanism.byName(value);
                    if (named.isEmpty()) {
                        err.accept("kaas user add: --mechanism must be one of " + Arrays.stream(ScramMechanism.values())
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
                        err.accept("kaas user add: --iterations must be a number, got " + value);
                        return Optional.empty();
                    }
                }
                default -> {
                    err.accept("kaas user add: unknown option " + arg);
                    return Optional.empty();
                }
            }
        }
        if (name == null || password == null) {
            err.accept("kaas user add: " + (name == null ? "NAME" : "--password") + " is required");
            return Optional.empty();
        }
        return Optional.of(new Request(name, mechanism, password, iterations));
    }
}
