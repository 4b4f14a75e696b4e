package io.kaas.operator;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.kaas.operator.health.HealthServer;
import io.kaas.operator.health.HealthSettings;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The operator's entry point: settings from the environment ({@link OperatorSettings}), the Kubernetes client as
 * fabric8 configures itself (in-cluster service account, or {@code KUBERNETES_MASTER}), then reconcile until SIGTERM.
 * The probes ({@link HealthServer}) answer from the start: alive at once, ready once the operator's informers are synced.
 */
public final class OperatorMain {
    private static final Logger LOG = LoggerFactory.getLogger(OperatorMain.class);

    private OperatorMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        OperatorSettings settings;
        HealthSettings healthSettings;
        try {
            settings = OperatorSettings.fromEnv(System.getenv());
            healthSettings = HealthSettings.fromEnv(System.getenv());
        } catch (IllegalArgumentException e) {
            LOG.error("{}", e.getMessage());
            System.exit(2);
            return;
        }
        AtomicReference<KaasOperator> started = new AtomicReference<>();
        HealthServer health = HealthServer.start(healthSettings, () -> {
            KaasOperator running = started.get();
            return running == null ? List.of("starting") : running.notReady();
        });
        KubernetesClient client = new KubernetesClientBuilder().build();
        KaasOperator operator = KaasOperator.start(client, settings, overrider -> {
        });
        started.set(operator);
        LOG.info("kaas operator reconciling namespace {} on {}", settings.namespace(), settings.dataDir());
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            LOG.info("stopping");
            operator.close();
            client.close();
            health.close();
            stopped.countDown();
        }, "kaas-operator-shutdown"));
        stopped.await();
    }
}
