package io.kaas.operator;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.kaas.adapter.fs.VolumePoolSetting;
import io.kaas.dev.apiserver.DevApiServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The reconciler tests' world: the development API server (fabric8's mock in CRUD mode) holding the chart's three
 * CRDs, a client for namespace {@link #NAMESPACE}, and a real java-operator-sdk Operator ({@link KaasOperator}) on a
 * temporary directory as the shared volume.
 */
public final class DevApiServerHarness implements AutoCloseable {
    public static final String NAMESPACE = "test";
    private static final List<String> CRDS = List.of("kafkatopics.kaas.rs-v1.yml", "kafkausers.kaas.rs-v1.yml",
            "kafkaclusters.kaas.rs-v1.yml");

    private final DevApiServer server;
    private final KubernetesClient client;
    private final Path data;
    private KaasOperator operator;

    public DevApiServerHarness(Path data) {
        this.data = data;
        server = DevApiServer.start(0);
        client = new KubernetesClientBuilder().withConfig(new ConfigBuilder(Config.empty())
                .withMasterUrl(server.url()).withNamespace(NAMESPACE).withHttp2Disable(true).build()).build();
        for (String crd : CRDS) {
            try (InputStream yaml = Files.newInputStream(Path.of("..", "helm", "kaas", "crds", crd))) {
                client.resource(client.getKubernetesSerialization().unmarshal(yaml, CustomResourceDefinition.class))
                        .create();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    public KubernetesClient client() {
        return client;
    }

    /** Starts the operator without leader election; its orphan sweep runs at once and then every {@code interval}. */
    public void startOperator(Duration sweepInterval) {
        startOperator(sweepInterval, List.of());
    }

    /** Starts the operator with a volume pool besides the data volume, as {@link #startOperator(Duration)} does. */
    public void startOperator(Duration sweepInterval, List<VolumePoolSetting.Member> pool) {
        operator = KaasOperator.start(client, new OperatorSettings(data, NAMESPACE, Optional.empty(), sweepInterval,
                pool), overrider -> overrider.withUseSSAToPatchPrimaryResource(false));
    }

    public void stopOperator() {
        if (operator != null) {
            operator.close();
            operator = null;
        }
    }

    @Override
    public void close() {
        stopOperator();
        client.close();
        server.shutdown();
    }
}
