package io.kaas.helm;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import org.junit.jupiter.api.Test;

/**
 * Every variable a cluster-mode broker reads (docs/cluster-mode.md, BrokerConfig) is set, and agrees with the objects it
 * names: the pod's own name and namespace from the downward API, the headless Service, the ports.
 */
class BrokerEnvironmentTest {
    private static final Chart.Manifests DEFAULTS = Chart.withDefaults().render();
    private static final StatefulSet SET = DEFAULTS.get(StatefulSet.class, "kaas");
    private static final Container BROKER = BrokerPodTest.broker(SET);
    private static final Env ENV = Env.of(BROKER);

    @Test
    void thePodNameCarriesTheBrokerIdAndTheNamespaceComesFromThePod() {
        assertThat(ENV.fieldPath("MY_POD_NAME")).isEqualTo("metadata.name");
        assertThat(ENV.fieldPath("MY_POD_NAMESPACE")).isEqualTo("metadata.namespace");
    }

    @Test
    void theHeadlessServiceVariableNamesTheHeadlessServiceTheStatefulSetGovernsItsPodsWith() {
        String headless = ENV.value("KAAS_HEADLESS_SERVICE");
        Service service = DEFAULTS.get(Service.class, headless);

        assertThat(headless).isEqualTo("kaas-brokers");
        assertThat(SET.getSpec().getServiceName()).isEqualTo(headless);
        assertThat(service.getSpec().getClusterIP()).isEqualTo("None");
    }

    @Test
    void thePortsTheBrokerBindsAreThePortsTheContainerDeclares() {
        assertThat(ENV.value("KAAS_PORT")).isEqualTo(port("kafka"));
        assertThat(ENV.value("KAAS_HEARTBEAT_PORT")).isEqualTo(port("heartbeat")).isEqualTo("9094");
        assertThat(ENV.value("KAAS_HEALTH_PORT")).isEqualTo(port("health")).isEqualTo("8080");
    }

    @Test
    void theBrokerListensOnEveryInterfaceAndStoresOnTheSharedVolume() {
        assertThat(ENV.value("KAAS_BIND_HOST")).isEqualTo("0.0.0.0");
        assertThat(ENV.value("KAAS_DATA_DIR")).isEqualTo("/data");
    }

    @Test
    void theControllerLeaseAndTheHeartbeatTimeoutComeFromValues() {
        assertThat(ENV.value("KAAS_LEASE_NAME")).isEqualTo("kaas-controller");
        assertThat(ENV.value("KAAS_LEASE_DURATION_SECONDS")).isEqualTo("10");
        assertThat(ENV.value("KAAS_HEARTBEAT_TIMEOUT_MS")).isEqualTo("3000");

        Env tuned = Env.of(BrokerPodTest.broker(Chart.withDefaults()
                .set("broker.controllerLease.durationSeconds", 15)
                .set("broker.heartbeatTimeoutMs", 5000)
                .render().get(StatefulSet.class, "kaas")));

        assertThat(tuned.value("KAAS_LEASE_DURATION_SECONDS")).isEqualTo("15");
        assertThat(tuned.value("KAAS_HEARTBEAT_TIMEOUT_MS")).isEqualTo("5000");
    }

    @Test
    void authorizationIsOffByDefaultAndValuesTurnItOnWithSuperUsers() {
        assertThat(BROKER.getEnv()).extracting(EnvVar::getName)
                .doesNotContain("KAAS_AUTHORIZATION_TYPE", "KAAS_SUPER_USERS", "KAAS_SSL_PRINCIPAL_MAPPING_RULES");

        Env secured = Env.of(BrokerPodTest.broker(Chart.withDefaults()
                .set("authorization.type", "simple")
                .set("authorization.superUsers[0]", "User:admin")
                .set("authorization.superUsers[1]", "User:operator")
                .set("authorization.sslPrincipalMappingRules", "RULE:^CN=([^,]+).*$/$1/L,DEFAULT")
                .render().get(StatefulSet.class, "kaas")));

        assertThat(secured.value("KAAS_AUTHORIZATION_TYPE")).isEqualTo("simple");
        assertThat(secured.value("KAAS_SUPER_USERS")).as("Apache's super.users separator")
                .isEqualTo("User:admin;User:operator");
        assertThat(secured.value("KAAS_SSL_PRINCIPAL_MAPPING_RULES")).isEqualTo("RULE:^CN=([^,]+).*$/$1/L,DEFAULT");
    }

    @Test
    void argoCdCoexistenceIsOffByDefaultAndNamesTheReleaseWhenOn() {
        assertThat(BROKER.getEnv()).extracting(EnvVar::getName).noneMatch(name -> name.startsWith("KAAS_ARGOCD_"));

        Env argo = Env.of(BrokerPodTest.broker(Chart.withDefaults().set("admin.argocd.enabled", true)
                .set("admin.argocd.syncOptions", "").render().get(StatefulSet.class, "kaas")));

        assertThat(argo.value("KAAS_ARGOCD_APPLICATION")).isEqualTo("kaas");
        assertThat(argo.value("KAAS_ARGOCD_COMPARE_OPTIONS")).isEqualTo("IgnoreExtraneous");
        assertThat(argo.value("KAAS_ARGOCD_SYNC_OPTIONS")).as("empty leaves the annotation out").isEmpty();
    }

    @Test
    void largeNumbersReachTheBrokerAsIntegersNotInFloatNotation() {
        assertThat(ENV.value("KAAS_MESSAGE_MAX_BYTES")).isEqualTo("1048588");
        assertThat(ENV.value("KAAS_FSYNC_MAX_LATENCY_MS")).isEqualTo("30000");
        assertThat(ENV.value("KAAS_RETENTION_CHECK_INTERVAL_MS")).isEqualTo("300000");
    }

    @Test
    void namesFollowTheReleaseSoTwoReleasesInANamespaceDoNotShareALeaseOrRegistry() {
        StatefulSet other = Chart.withDefaults().set("fullnameOverride", "orders").render()
                .get(StatefulSet.class, "orders");
        Env env = Env.of(BrokerPodTest.broker(other));

        assertThat(env.value("KAAS_HEADLESS_SERVICE")).isEqualTo("orders-brokers").isEqualTo(other.getSpec().getServiceName());
        assertThat(env.value("KAAS_LEASE_NAME")).isEqualTo("orders-controller");
    }

    @Test
    void extraEnvironmentIsAppended() {
        Env env = Env.of(BrokerPodTest.broker(Chart.withDefaults()
                .set("broker.extraEnv[0].name", "KAAS_DEFAULT_PARTITIONS")
                .set("broker.extraEnv[0].value", "6")
                .render().get(StatefulSet.class, "kaas")));

        assertThat(env.value("KAAS_DEFAULT_PARTITIONS")).isEqualTo("6");
        assertThat(env.fieldPath("MY_POD_NAME")).isEqualTo("metadata.name");
    }

    private static String port(String name) {
        return Integer.toString(BrokerPodTest.containerPort(BROKER, name).getContainerPort());
    }
}
