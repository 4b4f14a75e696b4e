package io.kaas.helm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import org.junit.jupiter.api.Test;

/** values.schema.json stops helm template (and install) on values of the wrong type, shape or name. */
class ValuesSchemaTest {

    @Test
    void aWrongTypeIsRefused() {
        assertThatThrownBy(() -> Chart.withDefaults().set("broker.replicaCount", "three").renderYaml())
                .hasMessageContaining("schema")
                .hasMessageContaining("/broker/replicaCount");
    }

    @Test
    void anUnknownAuthorizationTypeAndAPrincipalWithoutATypeAreRefused() {
        assertThatThrownBy(() -> Chart.withDefaults().set("authorization.type", "opa").renderYaml())
                .hasMessageContaining("authorization");
        assertThatThrownBy(() -> Chart.withDefaults().set("authorization.superUsers[0]", "admin").renderYaml())
                .hasMessageContaining("/authorization/superUsers/0");
    }

    @Test
    void aMisspelledKeyIsRefusedRatherThanIgnored() {
        assertThatThrownBy(() -> Chart.withDefaults().set("broker.replicas", 3).renderYaml())
                .hasMessageContaining("schema")
                .hasMessageContaining("replicas");
    }

    @Test
    void aGracePeriodShorterThanTheDrainIsRefused() {
        assertThatThrownBy(() -> Chart.withDefaults().set("broker.terminationGracePeriodSeconds", 10).renderYaml())
                .hasMessageContaining("/broker/terminationGracePeriodSeconds");
    }

    @Test
    void aListenerWithAnUnknownAuthenticationTypeIsRefused() {
        assertThatThrownBy(() -> Chart.withDefaults().valuesFile("bad-listener-authentication.yaml").renderYaml())
                .hasMessageContaining("/listeners/0/authentication/type");
    }

    @Test
    void mtlsWithoutTlsIsRefused() {
        assertThatThrownBy(() -> Chart.withDefaults().valuesFile("mtls-without-tls.yaml").renderYaml())
                .hasMessageContaining("/listeners/0/tls");
    }

    @Test
    void oauthWithoutTlsIsRefused() {
        assertThatThrownBy(() -> Chart.withDefaults().valuesFile("oauth-without-tls.yaml").renderYaml())
                .hasMessageContaining("/listeners/0/tls");
    }

    @Test
    void aValueOfTheRightTypePasses() {
        assertThat(Chart.withDefaults().set("broker.replicaCount", 5).render().get(StatefulSet.class, "kaas")
                .getSpec().getReplicas()).isEqualTo(5);
    }
}
