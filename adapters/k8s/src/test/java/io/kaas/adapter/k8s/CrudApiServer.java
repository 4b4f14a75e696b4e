package io.kaas.adapter.k8s;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.kaas.dev.apiserver.DevApiServer;
import java.util.function.UnaryOperator;

/**
 * The development API server ({@link DevApiServer}: fabric8's mock store in CRUD mode), in process, as the integration
 * tests' Kubernetes. {@link #restart()} stands for an API server that went away and came back changed: every open
 * watch breaks, and the server returns on the same port with a fresh store (only the default namespaces).
 */
final class CrudApiServer implements AutoCloseable {
    private DevApiServer server;

    CrudApiServer() {
        this.server = DevApiServer.start(0);
    }

    /** The running server, e.g. for canned failures ({@code expect()}), which take precedence over its store. */
    DevApiServer server() {
        return server;
    }

    /** A client of this server, in namespace {@code test}. */
    KubernetesClient client() {
        return client(config -> config);
    }

    KubernetesClient client(UnaryOperator<ConfigBuilder> tuning) {
        return clientOf(server.url(), tuning);
    }

    /** A client of whatever listens at {@code masterUrl}, or does not. */
    static KubernetesClient clientOf(String masterUrl, UnaryOperator<ConfigBuilder> tuning) {
        ConfigBuilder config = new ConfigBuilder(Config.empty())
                .withMasterUrl(masterUrl)
                .withNamespace("test")
                .withHttp2Disable(true);
        return new KubernetesClientBuilder().withConfig(tuning.apply(config).build()).build();
    }

    /** Stops the server, breaking every watch, and starts an empty one on the same port. */
    void restart() {
        int port = server.getPort();
        server.shutdown();
        server = DevApiServer.start(port);
    }

    @Override
    public void close() {
        server.shutdown();
    }
}
