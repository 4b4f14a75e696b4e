package io.kaas.dev.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSliceBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runnable jar, started as dev/cluster.sh starts it: announces its address (after writing a kubeconfig, if asked),
 * serves, stops on SIGTERM.
 */
class DevApiServerIT {
    private static final Path JAR = Path.of(System.getProperty("kaas.devApiServer.jar", "target/kaas-dev-apiserver.jar"));
    private static final String JAVA = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    private static final Pattern READY_LINE = Pattern.compile("apiserver (http://127\\.0\\.0\\.1:(\\d+))");

    private Process process;

    @AfterEach
    void stop() {
        if (process != null) {
            process.destroyForcibly();
        }
    }

    @Test
    void onAnEphemeralPortItServesLeasesAndEndpointSlicesUntilSigterm() throws Exception {
        process = new ProcessBuilder(JAVA, "-jar", JAR.toString(), "0").redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        BufferedReader stdout = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        String announced = CompletableFuture.supplyAsync(() -> readLine(stdout)).get(60, TimeUnit.SECONDS);
        Matcher ready = READY_LINE.matcher(announced);
        assertThat(ready.matches()).as("announced %s", announced).isTrue();
        assertThat(Integer.parseInt(ready.group(2))).isPositive();

        try (KubernetesClient client = new KubernetesClientBuilder().withConfig(new ConfigBuilder(Config.empty())
                .withMasterUrl(ready.group(1)).withNamespace("dev").withHttp2Disable(true).build()).build()) {
            client.resource(new LeaseBuilder().withNewMetadata().withName("kaas-controller").endMetadata()
                    .withNewSpec().withHolderIdentity("kaas-0").withLeaseTransitions(1).endSpec().build()).create();
            client.resource(new EndpointSliceBuilder().withNewMetadata().withName("kaas-abc")
                    .addToLabels("kubernetes.io/service-name", "kaas").endMetadata().withAddressType("IPv4")
                    .addNewEndpoint().withHostname("kaas-0").withAddresses("10.0.0.10").endEndpoint().build()).create();

            Lease lease = client.leases().inNamespace("dev").withName("kaas-controller").get();
            assertThat(lease.getSpec().getHolderIdentity()).isEqualTo("kaas-0");
            assertThat(lease.getMetadata().getResourceVersion()).isNotBlank();
            assertThat(client.discovery().v1().endpointSlices().inNamespace("dev")
                    .withLabel("kubernetes.io/service-name", "kaas").list().getItems())
                    .singleElement().satisfies(slice -> assertThat(slice.getEndpoints().get(0).getHostname())
                            .isEqualTo("kaas-0"));
        }

        process.destroy(); // SIGTERM
        await().atMost(Duration.ofSeconds(30)).until(() -> !process.isAlive());
    }

    @Test
    void askedForAKubeconfigItWritesOneNamingItselfBeforeAnnouncing(@TempDir Path dir) throws Exception {
        Path kubeconfig = dir.resolve("nested/kubeconfig");
        process = new ProcessBuilder(JAVA, "-jar", JAR.toString(), "--kubeconfig", kubeconfig.toString(), "0")
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        BufferedReader stdout = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        Matcher ready = READY_LINE.matcher(CompletableFuture.supplyAsync(() -> readLine(stdout)).get(60, TimeUnit.SECONDS));
        assertThat(ready.matches()).isTrue();

        String written = Files.readString(kubeconfig);
        assertThat(written).contains("server: \"" + ready.group(1) + "\"").contains("current-context: \"kaas-dev\"")
                .contains("namespace: \"default\"");
        io.fabric8.kubernetes.api.model.Config parsed = io.fabric8.kubernetes.client.utils.Serialization.unmarshal(
                written, io.fabric8.kubernetes.api.model.Config.class);
        assertThat(parsed.getClusters()).singleElement()
                .satisfies(c -> assertThat(c.getCluster().getServer()).isEqualTo(ready.group(1)));
    }

    @Test
    void withoutAPortItExplainsItsUsage() throws Exception {
        process = new ProcessBuilder(JAVA, "-jar", JAR.toString()).redirectErrorStream(true).start();

        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).isEqualTo(2);
        assertThat(new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8)).contains("usage:");
    }

    private static String readLine(BufferedReader reader) {
        try {
            String line = reader.readLine();
            return line == null ? "<end of output>" : line;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
