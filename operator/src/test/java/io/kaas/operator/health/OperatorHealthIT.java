package io.kaas.operator.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.kaas.dev.apiserver.DevApiServer;
import io.kaas.operator.KaasOperator;
import io.kaas.operator.OperatorSettings;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The operator's probes as OperatorMain wires them, against a real java-operator-sdk Operator and the development API
 * server: alive from the start, ready once its KafkaTopic informer has listed, not ready while the API server is gone
 * (its watch is broken), and alive all along.
 */
class OperatorHealthIT {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @TempDir
    Path data;

    private DevApiServer server;
    private KubernetesClient client;
    private KaasOperator operator;
    private HealthServer health;

    @BeforeEach
    void startApiServer() throws IOException {
        server = DevApiServer.start(0);
        client = new KubernetesClientBuilder().withConfig(new ConfigBuilder(Config.empty())
                .withMasterUrl(server.url()).withNamespace("test").withHttp2Disable(true)
                .withRequestRetryBackoffLimit(0).build()).build();
        try (InputStream crd = Files.newInputStream(Path.of("..", "helm", "kaas", "crds", "kafkatopics.kaas.rs-v1.yml"))) {
            client.resource(client.getKubernetesSerialization().unmarshal(crd, CustomResourceDefinition.class)).create();
        }
    }

    @AfterEach
    void stop() {
        if (health != null) {
            health.close();
        }
        if (operator != null) {
            operator.close();
        }
        client.close();
        if (server != null) {
            server.shutdown();
        }
    }

    @Test
    void aliveFromTheStartReadyOnceSyncedAndNotReadyWhileTheApiServerIsGone() throws Exception {
        AtomicReference<KaasOperator> started = new AtomicReference<>();
        health = HealthServer.start(new HealthSettings("127.0.0.1", 0), () -> {
            KaasOperator running = started.get();
            return running == null ? List.of("starting") : running.notReady();
        });
        assertThat(get("/healthz")).isEqualTo(new Answer(200, "ok\n"));
        assertThat(get("/readyz")).isEqualTo(new Answer(503, "starting\n"));

        operator = KaasOperator.start(client, new OperatorSettings(data, "test", Optional.empty(), Duration.ofHours(1),
                        List.of()),
                overrider -> overrider.withUseSSAToPatchPrimaryResource(false));
        started.set(operator);
        await("ready once the informer has listed").atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(get("/readyz")).isEqualTo(new Answer(200, "ready\n")));

        server.shutdown();
        server = null;
        await("not ready while its watch is broken").atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            Answer readyz = get("/readyz");
            assertThat(readyz.status()).isEqualTo(503);
            assertThat(readyz.body()).contains("event source", "not synced or not watching");
        });
        assertThat(get("/healthz")).as("alive: a restart would not bring the API server back")
                .isEqualTo(new Answer(200, "ok\n"));
        assertThat(HTTP.send(HttpRequest.newBuilder(uri("/readyz")).POST(HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.discarding()).statusCode()).isEqualTo(405);
    }

    private record Answer(int status, String body) {
    }

    private Answer get(String path) throws Exception {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(5))
                .build(), HttpResponse.BodyHandlers.ofString());
        return new Answer(response.statusCode(), response.body());
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + health.port() + path);
    }
}
