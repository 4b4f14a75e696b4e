package io.kaas.operator;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The operator's entry point: settings from the environment ({@link OperatorSettings}), the Kubernetes client as
 * fabric8 configures itself (in-cluster service account, or {@code KUBERNETES_MASTER}), then reconcile until SIGTERM.
 */
public final class OperatorMain {
    private static final Logger LOG = LoggerFactory.getLogger(OperatorMain.class);

    private OperatorMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        OperatorSettings settings;
        try {
            settings = OperatorSettings.fromEnv(System.getenv());
        } catch (IllegalArgumentException e) {
            LOG.error("{}", e.getMessage());
            System.exit(2);
            return;
        }
        KubernetesClient client = new KubernetesClientBuilder().build();
        KaasOperator operator = KaasOperator.start(client, settings, overrider -> {
        });
        LOG.info("kaas operator reconciling namespace {} on {}", settings.namespace(), settings.dataDir());
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            LOG.info("stopping");
            operator.close();
            client.close();
            stopped.countDown();
        }, "kaas-operator-shutdown"));
        stopped.await();
    }
}
