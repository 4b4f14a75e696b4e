package io.kaas.helm;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The listeners array reaches the broker as KAAS_LISTENERS (the enabled entries, as JSON), and the same ports are the
 * container's, the headless Service's and the bootstrap Service's; the first enabled listener is the port named
 * "kafka" that the broker registry reads, and the one on KAAS_PORT.
 */
class ListenersTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void byDefaultOnlyThePlainListenerIsEnabledOf4Declared() throws Exception {
        Chart.Manifests manifests = Chart.withDefaults().render();
        Env env = Env.of(BrokerPodTest.broker(manifests.get(StatefulSet.class, "kaas")));

        assertThat(listeners(env)).containsExactly(Map.of("name", "plain", "port", 9092, "type", "internal",
                "tls", false, "authentication", Map.of("type", "none")));
        assertThat(env.value("KAAS_PORT")).isEqualTo("9092");
        assertThat(clientPorts(manifests)).containsExactly(List.of("kafka:9092"), List.of("kafka:9092"),
                List.of("kafka:9092"));
    }

    @Test
    void everyEnabledListenerIsInKaasListenersAndOnTheContainerAndBothServices() throws Exception {
        Chart.Manifests manifests = Chart.withDefaults().valuesFile("two-listeners.yaml").render();
        Env env = Env.of(BrokerPodTest.broker(manifests.get(StatefulSet.class, "kaas")));
        List<Map<String, Object>> listeners = listeners(env);

        assertThat(listeners).extracting(listener -> listener.get("name")).containsExactly("plain", "authed");
        assertThat(listeners.get(1)).isEqualTo(Map.of("name", "authed", "port", 9095, "type", "internal",
                "tls", false, "authentication", Map.of("type", "scram-sha-512")));
        assertThat(listeners).allSatisfy(listener -> assertThat(listener).doesNotContainKey("enabled"));
        assertThat(env.value("KAAS_PORT")).isEqualTo("9092");
        List<String> expected = List.of("kafka:9092", "authed:9095");
        assertThat(clientPorts(manifests)).containsExactly(expected, expected, expected);
    }

    @Test
    void whenTheFirstDeclaredListenerIsDisabledTheFirstEnabledOneIsServed() throws Exception {
        Chart.Manifests manifests = Chart.withDefaults().valuesFile("first-listener-disabled.yaml").render();
        Env env = Env.of(BrokerPodTest.broker(manifests.get(StatefulSet.class, "kaas")));

        assertThat(listeners(env)).extracting(listener -> listener.get("name")).containsExactly("authed");
        assertThat(env.value("KAAS_PORT")).isEqualTo("9095");
        assertThat(clientPorts(manifests)).containsExactly(List.of("kafka:9095"), List.of("kafka:9095"),
                List.of("kafka:9095"));
    }

    @Test
    void theHeadlessServiceAlsoCarriesTheHeartbeatPortByTheNameTheRegistryReads() {
        Service headless = Chart.withDefaults().render().get(Service.class, "kaas-brokers");

        assertThat(headless.getSpec().getPorts()).extracting(port -> port.getName() + ":" + port.getPort())
                .containsExactly("kafka:9092", "heartbeat:9094");
    }

    @Test
    void eachTlsListenersSecretIsMountedReadOnlyAsADirectoryWhereTheBrokerReadsIt() throws Exception {
        Chart.Manifests manifests = Chart.withDefaults().valuesFile("tls-listener.yaml")
                .set("listeners[2].name", "mtls").set("listeners[2].port", "9097").set("listeners[2].type", "internal")
                .set("listeners[2].tls", "true").set("listeners[2].authentication.type", "mtls")
                .set("listeners[2].certificate.secretName", "clients-ca-signed").render();
        StatefulSet statefulSet = manifests.get(StatefulSet.class, "kaas");
        Container broker = BrokerPodTest.broker(statefulSet);

        assertThat(broker.getVolumeMounts()).filteredOn(mount -> mount.getName().startsWith("tls-"))
                .extracting(mount -> mount.getName() + " " + mount.getMountPath() + " " + mount.getReadOnly()
                        + " subPath=" + mount.getSubPath())
                .containsExactlyInAnyOrder("tls-external /etc/kaas/tls/external true subPath=null",
                        "tls-mtls /etc/kaas/tls/mtls true subPath=null");
        assertThat(statefulSet.getSpec().getTemplate().getSpec().getVolumes())
                .filteredOn(volume -> volume.getName().startsWith("tls-"))
                .extracting(volume -> volume.getName() + " " + volume.getSecret().getSecretName() + " "
                        + Integer.toOctalString(volume.getSecret().getDefaultMode()))
                .containsExactlyInAnyOrder("tls-external kaas-external-tls 440", "tls-mtls clients-ca-signed 440");
        assertThat(listeners(Env.of(broker))).as("the chart's own key stays in the chart")
                .allSatisfy(listener -> assertThat(listener).doesNotContainKey("certificate"));
    }

    @Test
    void anOauthListenersAuthenticationReachesTheBrokerWhole() throws Exception {
        Container broker = BrokerPodTest.broker(Chart.withDefaults().valuesFile("oauth-listener.yaml").render()
                .get(StatefulSet.class, "kaas"));

        assertThat(listeners(Env.of(broker)).get(1).get("authentication")).isEqualTo(Map.of("type", "oauth",
                "validIssuerUri", "https://issuer.example/realms/kafka",
                "jwksEndpointUri", "https://issuer.example/realms/kafka/protocol/openid-connect/certs",
                "userNameClaim", "preferred_username", "checkAudience", true, "clientId", "kafka",
                "maxSecondsWithoutReauthentication", 3600));
    }

    @Test
    void aPlaintextListenerMountsNoCertificate() {
        Container broker = BrokerPodTest.broker(Chart.withDefaults().valuesFile("two-listeners.yaml").render()
                .get(StatefulSet.class, "kaas"));

        assertThat(broker.getVolumeMounts()).noneMatch(mount -> mount.getMountPath().startsWith("/etc/kaas/tls"));
    }

    /** Client ports as name:port: the container's, the headless Service's, the bootstrap Service's. */
    private static List<List<String>> clientPorts(Chart.Manifests manifests) {
        Container broker = BrokerPodTest.broker(manifests.get(StatefulSet.class, "kaas"));
        List<String> container = broker.getPorts().stream()
                .filter(port -> !List.of("heartbeat", "health").contains(port.getName()))
                .map(ListenersTest::describe).toList();
        return List.of(container, servicePorts(manifests.get(Service.class, "kaas-brokers")),
                servicePorts(manifests.get(Service.class, "kaas-bootstrap")));
    }

    private static List<String> servicePorts(Service service) {
        List<ServicePort> ports = service.getSpec().getPorts().stream()
                .filter(port -> !"heartbeat".equals(port.getName())).toList();
        assertThat(ports).allSatisfy(port -> assertThat(port.getTargetPort().getStrVal()).isEqualTo(port.getName()));
        return ports.stream().map(ListenersTest::describe).toList();
    }

    private static String describe(ContainerPort port) {
        return port.getName() + ":" + port.getContainerPort();
    }

    private static String describe(ServicePort port) {
        return port.getName() + ":" + port.getPort();
    }

    private static List<Map<String, Object>> listeners(Env env) throws Exception {
        return JSON.readValue(env.value("KAAS_LISTENERS"), new TypeReference<>() {
        });
    }
}
