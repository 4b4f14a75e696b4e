package io.kaas.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.domain.security.KafkaPrincipal;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AuthorizationSettingsTest {

    @Test
    void withoutAnyVariableEverythingIsAllowed() {
        AuthorizationSettings settings = BrokerConfig.fromEnvironment(Map.of()).authorization();

        assertThat(settings.simple()).isFalse();
        assertThat(settings.superUsers()).isEmpty();
        assertThat(settings.reloadIntervalMs()).isEqualTo(AuthorizationSettings.DEFAULT_RELOAD_INTERVAL_MS);
    }

    @Test
    void simpleTurnsTheAclsOnAndTheSuperUsersReadAsApachesSemicolonList() {
        AuthorizationSettings settings = BrokerConfig.fromEnvironment(Map.of("KAAS_AUTHORIZATION_TYPE", "simple",
                "KAAS_SUPER_USERS", "User:admin; User:CN=ops,O=acme", "KAAS_SECURITY_RELOAD_INTERVAL_MS", "500"))
                .authorization();

        assertThat(settings.simple()).isTrue();
        assertThat(settings.superUsers()).as("with ';', a comma belongs to the name (a certificate's DN)")
                .containsExactlyInAnyOrder(KafkaPrincipal.user("admin"), KafkaPrincipal.user("CN=ops,O=acme"));
        assertThat(settings.reloadIntervalMs()).isEqualTo(500);
    }

    @Test
    void withoutASemicolonTheSuperUsersMayBeCommaSeparated() {
        assertThat(AuthorizationSettings.parseSuperUsers("User:alice,User:bob"))
                .containsExactlyInAnyOrder(KafkaPrincipal.user("alice"), KafkaPrincipal.user("bob"));
    }

    @Test
    void anUnknownTypeAndAPrincipalWithoutATypeAreConfigurationErrors() {
        assertThatThrownBy(() -> BrokerConfig.fromEnvironment(Map.of("KAAS_AUTHORIZATION_TYPE", "opa",
                "KAAS_SUPER_USERS", "admin")))
                .hasMessageContaining("KAAS_AUTHORIZATION_TYPE=opa: expected simple")
                .hasMessageContaining("KAAS_SUPER_USERS=admin: expected principals as Type:name");
    }
}
