package io.kaas.dev.apiserver;

import static io.kaas.dev.apiserver.testing.Kubectl.table;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.kaas.dev.apiserver.testing.Kubectl;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real kubectl against the development API server in this JVM, through the kubeconfig the server writes: the
 * commands a developer runs against a kaas cluster on one machine, with the KafkaTopic CRD of the spec book
 * (kaas.rs/v1alpha1) applied at run time and never {@code --validate=false}.
 */
class KubectlIT {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static Path binary;

    @TempDir
    Path dir;

    private DevApiServer server;
    private Kubectl kubectl;

    @BeforeAll
    static void findKubectl() {
        Optional<Path> found = Kubectl.find();
        assumeTrue(found.isPresent(), "no kubectl binary (-Dkaas.kubectl, $KUBECTL, the PATH, /usr/bin, "
                + "/usr/local/bin): these tests drive the real kubectl and are skipped without one");
        binary = found.get();
    }

    @BeforeEach
    void start() throws IOException {
        server = DevApiServer.start(0);
        Path kubeconfig = dir.resolve("kubeconfig");
        server.writeKubeconfig(kubeconfig);
        kubectl = new Kubectl(binary, kubeconfig, Files.createDirectories(dir.resolve("home")));
    }

    @AfterEach
    void stop() {
        server.shutdown();
    }

    @Test
    void versionAndTheNamespacesPresentAtStart() {
        Kubectl.Result version = ok("version");
        assertThat(version.stdout()).contains("Server Version: " + DiscoveryResponder.GIT_VERSION);

        List<List<String>> table = table(ok("get", "ns").stdout());
        assertThat(table.get(0)).containsExactly("NAME", "STATUS", "AGE");
        assertThat(table.subList(1, table.size())).extracting(row -> row.subList(0, 2))
                .containsExactly(List.of("default", "Active"), List.of("kube-system", "Active"));
    }

    @Test
    void aCrdAppliedAtRunTimeIsServedWithItsPrinterColumnsAndShortName() {
        Kubectl.Result before = kubectl.run("get", "kt");
        assertThat(before.exitCode()).isNotZero();
        assertThat(before.stderr()).contains("doesn't have a resource type \"kt\"");
        applyCrdAndOrders();

        List<List<String>> wide = table(ok("get", "kafkatopics", "-o", "wide").stdout());
        assertThat(wide.get(0)).containsExactly("NAME", "PARTITIONS", "READY", "TOPIC ID", "AGE");
        assertThat(wide).hasSize(2);
        assertThat(wide.get(1).subList(0, 2)).containsExactly("orders", "3");

        List<List<String>> narrow = table(ok("get", "kt").stdout());
        assertThat(narrow.get(0)).as("Topic ID has priority 1: -o wide only").containsExactly("NAME", "PARTITIONS",
                "READY", "AGE");
        assertThat(narrow.get(1).subList(0, 2)).containsExactly("orders", "3");
        assertThat(ok("api-resources", "--api-group=kaas.rs").stdout()).contains("kafkatopics").contains("kt")
                .contains("kaas.rs/v1alpha1").contains("KafkaTopic");
    }

    @Test
    void mergePatchesTheSpecAndTheStatusSubresourceAndLabels() {
        applyCrdAndOrders();

        ok("patch", "kt", "orders", "--type=merge", "-p", "{\"spec\":{\"partitions\":6}}");
        assertThat(ok("get", "kt", "orders", "-o", "jsonpath={.spec.partitions}").stdout()).isEqualTo("6");

        ok("patch", "kt", "orders", "--subresource=status", "--type=merge", "-p",
                "{\"status\":{\"topicId\":\"t-123\",\"conditions\":[{\"type\":\"Ready\",\"status\":\"True\"}]}}");
        List<List<String>> wide = table(ok("get", "kt", "-o", "wide").stdout());
        assertThat(wide.get(1).subList(0, 4)).containsExactly("orders", "6", "True", "t-123");

        // A status patch through the main resource is ignored, as kube-apiserver ignores it with a status subresource.
        ok("patch", "kt", "orders", "--type=merge", "-p", "{\"status\":{\"topicId\":\"overwritten\"}}");
        assertThat(ok("get", "kt", "orders", "-o", "jsonpath={.status.topicId}").stdout()).isEqualTo("t-123");

        ok("label", "kt", "orders", "env=dev");
        assertThat(ok("get", "kt", "-l", "env=dev", "-o", "name").stdout().trim()).isEqualTo("kafkatopic.kaas.rs/orders");
        ok("label", "kt", "orders", "env-");
        assertThat(ok("get", "kt", "orders", "-o", "jsonpath={.metadata.labels.env}").stdout()).isEmpty();
        assertThat(ok("get", "kt", "-l", "env=dev", "-o", "name").stdout()).isEmpty();
    }

    @Test
    void waitForAJsonPathReturnsOnceTheStatusSaysSo() {
        applyCrdAndOrders();
        Kubectl.Result unmet = kubectl.run("wait", "kt/orders", "--for=jsonpath={.status.phase}=Ready", "--timeout=1s");
        assertThat(unmet.exitCode()).as("%s", unmet).isNotZero();
        assertThat(unmet.stderr()).contains("timed out");

        try (Kubectl.Background wait = kubectl.background("wait", "kt/orders", "--for=jsonpath={.status.phase}=Ready",
                "--timeout=30s")) {
            ok("patch", "kt", "orders", "--subresource=status", "--type=merge", "-p", "{\"status\":{\"phase\":\"Ready\"}}");
            await().atMost(WAIT).until(() -> !wait.process().isAlive());
            assertThat(wait.process().exitValue()).as("stderr: %s", wait.errors()).isZero();
            assertThat(wait.lines()).containsExactly("kafkatopic.kaas.rs/orders condition met");
        }
    }

    @Test
    void getWatchPrintsARowPerChangeOverAChunkedHttpStream() {
        applyCrdAndOrders();
        try (Kubectl.Background watch = kubectl.background("get", "kt", "-w")) {
            await().atMost(WAIT).untilAsserted(() -> assertThat(rows(watch, "orders")).as("stderr: %s", watch.errors()).hasSize(1));
            assertThat(watch.lines().get(0).split("\\s{2,}")).containsExactly("NAME", "PARTITIONS", "READY", "AGE");

            ok("patch", "kt", "orders", "--type=merge", "-p", "{\"spec\":{\"partitions\":7}}");
            await().atMost(WAIT).untilAsserted(() -> assertThat(rows(watch, "orders")).as("stderr: %s", watch.errors()).hasSize(2));
            assertThat(rows(watch, "orders").get(1).subList(0, 2)).containsExactly("orders", "7");

            ok("patch", "kt", "orders", "--subresource=status", "--type=merge", "-p",
                    "{\"status\":{\"conditions\":[{\"type\":\"Ready\",\"status\":\"False\"}]}}");
            await().atMost(WAIT).untilAsserted(() -> assertThat(rows(watch, "orders")).as("stderr: %s", watch.errors()).hasSize(3));
            assertThat(rows(watch, "orders").get(2).subList(0, 3)).containsExactly("orders", "7", "False");
            assertThat(watch.process().isAlive()).isTrue();
        }
    }

    @Test
    void deleteRemovesTheObjectAndAMissingOneIsNamedInTheError() {
        applyCrdAndOrders();
        assertThat(ok("delete", "kt", "orders").stdout()).contains("kafkatopic.kaas.rs \"orders\" deleted");

        Kubectl.Result missing = kubectl.run("get", "kt", "orders");
        assertThat(missing.exitCode()).isNotZero();
        assertThat(missing.stderr()).contains("(NotFound)").contains("kafkatopics.kaas.rs \"orders\" not found");
        assertThat(ok("get", "kt").stderr()).contains("No resources found");
    }

    @Test
    void serverSideApplyCreatesThenMergesItsIntent() throws IOException {
        applyCrdAndOrders();
        Path payments = dir.resolve("payments.yaml");
        Files.writeString(payments, topic("payments", 2));
        assertThat(ok("apply", "--server-side", "-f", payments.toString()).stdout()).contains("serverside-applied");
        Files.writeString(payments, topic("payments", 4));
        ok("apply", "--server-side", "-f", payments.toString());

        assertThat(ok("get", "kt", "payments", "-o", "jsonpath={.spec.partitions}").stdout()).isEqualTo("4");
        assertThat(ok("get", "kt", "payments", "-o", "jsonpath={.metadata.generation}").stdout()).isEqualTo("2");
    }

    @Test
    void applyOfABuiltInTypeRemovesWhatTheFileNoLongerHas() throws IOException {
        Path settings = dir.resolve("settings.yaml");
        Files.writeString(settings, configMap("a: \"1\"\n  b: \"2\""));
        ok("apply", "-f", settings.toString());
        Files.writeString(settings, configMap("a: \"1\"\n  c: \"3\""));
        ok("apply", "-f", settings.toString()); // a strategic merge patch with b: null

        assertThat(ok("get", "configmap", "settings", "-o", "jsonpath={.data}").stdout())
                .isEqualTo("{\"a\":\"1\",\"c\":\"3\"}");
    }

    @Test
    void whatTheServerCannotDoFailsAtOnceWithAReason() throws IOException {
        Kubectl.Result protobuf = kubectl.run("create", "namespace", "extra");
        assertThat(protobuf.exitCode()).isNotZero();
        assertThat(protobuf.stderr()).contains("UnsupportedMediaType");

        applyCrdAndOrders();
        Path changed = dir.resolve("orders-changed.yaml");
        Files.writeString(changed, topic("orders", 5)); // kubectl diff asks the server only when something changed
        Kubectl.Result diff = kubectl.run("diff", "-f", changed.toString());
        assertThat(diff.exitCode()).as("%s", diff).isGreaterThan(1); // 1 would mean "differences found"
        assertThat(diff.stderr()).contains("does not do dry runs");
        assertThat(ok("get", "kt", "orders", "-o", "jsonpath={.spec.partitions}").stdout()).isEqualTo("3");
    }

    private void applyCrdAndOrders() {
        assertThat(ok("apply", "-f", resource("kafkatopic-crd.yaml").toString()).stdout())
                .contains("customresourcedefinition.apiextensions.k8s.io/kafkatopics.kaas.rs created");
        assertThat(ok("apply", "-f", resource("kafkatopic-orders.yaml").toString()).stdout())
                .contains("kafkatopic.kaas.rs/orders created");
    }

    private Kubectl.Result ok(String... args) {
        Kubectl.Result result = kubectl.run(args);
        assertThat(result.exitCode()).as("kubectl %s: %s", String.join(" ", args), result).isZero();
        return result;
    }

    /** A test resource copied out of the classpath, for {@code kubectl -f}. */
    private Path resource(String name) {
        Path file = dir.resolve(name);
        try (InputStream in = KubectlIT.class.getResourceAsStream("/" + name)) {
            if (!Files.exists(file)) {
                Files.copy(in, file);
            }
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<List<String>> rows(Kubectl.Background watch, String name) {
        return table(String.join("\n", watch.lines())).stream().filter(row -> row.get(0).equals(name)).toList();
    }

    private static String topic(String name, int partitions) {
        return "apiVersion: kaas.rs/v1alpha1\nkind: KafkaTopic\nmetadata:\n  name: " + name + "\nspec:\n  partitions: "
                + partitions + "\n";
    }

    private static String configMap(String data) {
        return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  " + data + "\n";
    }
}
