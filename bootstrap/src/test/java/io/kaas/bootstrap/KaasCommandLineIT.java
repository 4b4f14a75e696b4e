package io.kaas.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.adapter.fs.DataLayout;
import io.kaas.adapter.fs.JacksonCodec;
import io.kaas.adapter.fs.JsonCredentialStore;
import io.kaas.adapter.fs.JsonFiles;
import io.kaas.adapter.fs.NioFilesystem;
import io.kaas.domain.security.ScramCredential;
import io.kaas.domain.security.ScramMechanism;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code java -cp ... io.kaas.bootstrap.KaasMain} in its own JVM, as {@code ./kaas} runs it: the
 * {@code user add} command and its exit status, and a broker refusing to start on listeners it
 * cannot serve.
 */
class KaasCommandLineIT {
    @TempDir
    Path dataDir;

    @Test
    void userAddWritesASaltedCredentialIntoTheDataDirectoryAndExits() throws Exception {
        Run run = kaasMain(Map.of("KAAS_DATA_DIR", dataDir.toString()), "user", "add", "admin", "--mechanism",
                "SCRAM-SHA-256", "--password", "admin-secret", "--iterations", "8192");

        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(run.output()).contains("user admin: SCRAM-SHA-256 credential (8192 iterations) written to");
        Path file = dataDir.resolve("__cluster/credentials.json");
        assertThat(Files.readString(file, StandardCharsets.UTF_8)).doesNotContain("admin-secret");
        ScramCredential stored = new JsonCredentialStore(new DataLayout(dataDir),
                new JsonFiles(new NioFilesystem(), new JacksonCodec())).read().user("admin").orElseThrow()
                .scram(ScramMechanism.SCRAM_SHA_256).orElseThrow();
        assertThat(stored.iterations()).isEqualTo(8192);
        assertThat(stored.matches(ScramMechanism.SCRAM_SHA_256, "admin-secret")).isTrue();

        Run second = kaasMain(Map.of("KAAS_DATA_DIR", dataDir.toString()), "user", "add", "admin", "--password", "other");
        assertThat(second.exitCode()).as(second.output()).isZero();
        assertThat(new JsonCredentialStore(new DataLayout(dataDir), new JsonFiles(new NioFilesystem(), new JacksonCodec()))
                .read().user("admin").orElseThrow().scram()).as("SCRAM-SHA-512 by default, beside the -256 one")
                .containsOnlyKeys(ScramMechanism.SCRAM_SHA_256, ScramMechanism.SCRAM_SHA_512);
    }

    @Test
    void userAddRefusesBadInputWithUsageAndStatusTwo() throws Exception {
        Map<String, String> env = Map.of("KAAS_DATA_DIR", dataDir.toString());

        Run noPassword = kaasMain(env, "user", "add", "admin");
        assertThat(noPassword.exitCode()).isEqualTo(2);
        assertThat(noPassword.output()).contains("--password is required", UserCommand.USAGE);

        Run badMechanism = kaasMain(env, "user", "add", "admin", "--mechanism", "MD5", "--password", "x");
        assertThat(badMechanism.exitCode()).isEqualTo(2);
        assertThat(badMechanism.output()).contains("--mechanism must be one of [SCRAM-SHA-256, SCRAM-SHA-512], got MD5");

        Run weak = kaasMain(env, "user", "add", "admin", "--password", "x", "--iterations", "100");
        assertThat(weak.exitCode()).isEqualTo(2);
        assertThat(weak.output()).contains("kaas user add: Too few iterations");

        assertThat(kaasMain(env, "frobnicate").exitCode()).isEqualTo(2);
        assertThat(Files.exists(dataDir.resolve("__cluster/credentials.json"))).isFalse();
    }

    @Test
    void aBrokerWithListenersItCannotServeRefusesToStartSayingWhy() throws Exception {
        String listeners = "[{\"name\":\"plain\",\"port\":0,\"type\":\"internal\",\"tls\":false,"
                + "\"authentication\":{\"type\":\"plain\"}},{\"name\":\"external\",\"port\":0,\"type\":\"external\","
                + "\"tls\":false,\"authentication\":{\"type\":\"tls\"}}]";

        Run run = kaasMain(Map.of("KAAS_DATA_DIR", dataDir.toString(), "KAAS_PORT", "0", "KAAS_HEALTH_PORT", "0",
                "KAAS_LISTENERS", listeners));

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.output()).contains("listener plain: authentication plain sends a reusable secret",
                "listener external: authentication tls identifies clients by their TLS certificate and needs tls: true");
    }

    private record Run(int exitCode, String output) {
    }

    private static Run kaasMain(Map<String, String> env, String... args) throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> command = new ArrayList<>(List.of(java, "-Xmx128m", "-cp", classpath, KaasMain.class.getName()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().putAll(env);
        Path output = Files.createTempFile("kaas-main", ".out");
        try {
            Process process = builder.redirectOutput(output.toFile()).start();
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError("KaasMain did not exit: " + Files.readString(output, StandardCharsets.UTF_8));
            }
            return new Run(process.exitValue(), Files.readString(output, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(output);
        }
    }
}
