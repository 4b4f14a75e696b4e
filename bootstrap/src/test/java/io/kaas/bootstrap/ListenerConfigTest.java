package io.kaas.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.adapter.wire.tls.TlsClientAuth;
import io.kaas.adapter.wire.tls.TlsSettings;
import io.kaas.bootstrap.ListenerConfig.Authentication;
import io.kaas.domain.config.BrokerConfigs;
import io.kaas.domain.security.SaslMechanism;
import io.kaas.domain.security.oauth.JwtPolicy;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@code KAAS_LISTENERS} as the Helm chart renders it, and every combination the broker refuses to start with. */
class ListenerConfigTest {
    /** The chart's default listeners with authed enabled, as {@code kaas.enabledListeners} renders them. */
    private static final String CHART = """
            [{"authentication":{"type":"none"},"name":"plain","port":9092,"tls":false,"type":"internal"},\
            {"authentication":{"type":"scram-sha-512"},"name":"authed","port":9095,"tls":false,"type":"internal"}]""";

    @Test
    void withoutKaasListenersOnePlaintextListenerServesKaasPort() {
        BrokerConfig config = BrokerConfig.fromEnvironment(Map.of("KAAS_PORT", "19092"));

        assertThat(config.listeners()).containsExactly(new ListenerConfig("plain", 19092, false, Optional.empty(), Authentication.NONE,
                Optional.empty(), 0));
        assertThat(config.port()).isEqualTo(19092);
        assertThat(config.listeners().get(0).saslMechanisms()).isEmpty();
    }

    @Test
    void theChartsListenersParseAndTheFirstIsThePrimaryOne() {
        BrokerConfig config = BrokerConfig.fromEnvironment(Map.of("KAAS_PORT", "9092", "KAAS_LISTENERS", CHART));

        assertThat(config.listeners()).containsExactly(
                new ListenerConfig("plain", 9092, false, Optional.empty(), Authentication.NONE, Optional.empty(), 0),
                new ListenerConfig("authed", 9095, false, Optional.empty(), Authentication.SCRAM_SHA_512,
                        Optional.empty(), 0));
        assertThat(config.port()).isEqualTo(9092);
        assertThat(config.listeners().get(1).saslMechanisms()).containsExactly(SaslMechanism.SCRAM_SHA_512);
    }

    @Test
    void withoutKaasPortTheFirstListenersPortIsThePrimaryPortAndScramSha256IsAccepted() {
        BrokerConfig config = BrokerConfig.fromEnvironment(Map.of("KAAS_LISTENERS",
                "[{\"name\":\"sha256\",\"port\":9096,\"authentication\":{\"type\":\"SCRAM-SHA-256\"}}]"));

        assertThat(config.port()).isEqualTo(9096);
        assertThat(config.listeners().get(0).saslMechanisms()).containsExactly(SaslMechanism.SCRAM_SHA_256);
        assertThat(config.listeners().get(0).external()).isFalse();
    }

    @Test
    void plainAndOauthWithoutTlsAreRefusedBecauseTheySendReusableSecrets() {
        assertRefused(listener("p", 9092, false, "plain"),
                "listener p: authentication plain sends a reusable secret (the password) and needs tls: true");
        assertRefused(listener("o", 9092, false, "oauth"),
                "listener o: authentication oauth sends a reusable secret (a bearer token) and needs tls: true");
    }

    @Test
    void certificateAuthenticationWithoutTlsIsRefusedUnderEitherName() {
        assertRefused(listener("m", 9092, false, "mtls"),
                "listener m: authentication tls identifies clients by their TLS certificate and needs tls: true");
        assertRefused(listener("t", 9092, false, "tls"),
                "listener t: authentication tls identifies clients by their TLS certificate and needs tls: true");
    }

    @Test
    void aTlsListenerReadsItsFilesFromTheChartsMountByDefault() {
        ListenerConfig listener = BrokerConfig.fromEnvironment(Map.of("KAAS_LISTENERS",
                "[" + listener("secure", 9093, true, "scram-sha-512") + "]")).listeners().get(0);

        assertThat(listener.tlsSettings()).contains(TlsSettings.server(Path.of("/etc/kaas/tls/secure/tls.crt"),
                Path.of("/etc/kaas/tls/secure/tls.key")));
        assertThat(listener.securityProtocol()).isEqualTo("SASL_SSL");
    }

    @Test
    void mtlsRequiresClientCertificatesFromTheDefaultCaBundleAndEveryFieldCanBeSet() {
        ListenerConfig mtls = BrokerConfig.fromEnvironment(Map.of("KAAS_LISTENERS",
                "[" + listener("m", 9094, true, "mtls") + "]")).listeners().get(0);
        assertThat(mtls.tlsSettings().orElseThrow().clientAuth()).isEqualTo(TlsClientAuth.REQUIRED);
        assertThat(mtls.tlsSettings().orElseThrow().caFile()).contains(Path.of("/etc/kaas/tls/m/ca.crt"));
        assertThat(mtls.securityProtocol()).isEqualTo("SSL");

        ListenerConfig custom = BrokerConfig.fromEnvironment(Map.of("KAAS_LISTENERS", """
                [{"name":"x","port":9093,"tls":true,"tlsConfiguration":{"certFile":"/c/crt","keyFile":"/c/key",\
                "caFile":"/c/ca","clientAuth":"requested","protocols":["TLSv1.3"],"cipherSuites":["TLS_AES_128_GCM_SHA256"],\
                "reloadIntervalSeconds":30,"handshakeTimeoutMs":2500}}]""")).listeners().get(0);
        assertThat(custom.tlsSettings()).contains(new TlsSettings(Path.of("/c/crt"), Path.of("/c/key"),
                Optional.of(Path.of("/c/ca")), TlsClientAuth.REQUESTED, List.of("TLSv1.3"),
                List.of("TLS_AES_128_GCM_SHA256"), Duration.ofSeconds(30), Duration.ofMillis(2500)));
    }

    @Test
    void tlsConfigurationsTheBrokerCannotHonourAreRefused() {
        assertRefused("[{\"name\":\"m\",\"port\":1,\"tls\":true,\"authentication\":{\"type\":\"mtls\"},"
                + "\"tlsConfiguration\":{\"clientAuth\":\"requested\"}}]",
                "listener m: authentication tls identifies clients by their certificate and needs clientAuth required, "
                        + "got requested");
        assertRefused("[{\"name\":\"p\",\"port\":1,\"tlsConfiguration\":{}}]",
                "listener p: tlsConfiguration is only read with tls: true");
        assertRefused("[{\"name\":\"s\",\"port\":1,\"tls\":true,\"tlsConfiguration\":{\"protocols\":[]}}]",
                "listener s: tlsConfiguration: no TLS protocol enabled");
        assertRefused("[{\"name\":\"s\",\"port\":1,\"tls\":true,\"tlsConfiguration\":{\"clientAuth\":\"maybe\"}}]",
                "listener s: tlsConfiguration: ssl.client.auth is none, requested or required, got 'maybe'");
        assertThatThrownBy(() -> BrokerConfig.fromEnvironment(Map.of("KAAS_SSL_PRINCIPAL_MAPPING_RULES", "RULE:broken")))
                .hasMessageContaining("KAAS_SSL_PRINCIPAL_MAPPING_RULES=RULE:broken: expected Apache's ssl.principal.mapping.rules");
    }

    @Test
    void anOauthListenerReadsStrimzisFieldsWithTheirDefaults() {
        ListenerConfig minimal = BrokerConfig.fromEnvironment(Map.of("KAAS_LISTENERS", """
                [{"name":"oauth","port":9096,"tls":true,"authentication":{"type":"oauth",                "validIssuerUri":"https://issuer.example/realms/kafka",                "jwksEndpointUri":"https://issuer.example/realms/kafka/certs"}}]""")).listeners().get(0);
        assertThat(minimal.saslMechanisms()).containsExactly(SaslMechanism.OAUTHBEARER);
        assertThat(minimal.securityProtocol()).isEqualTo("SASL_SSL");
        assertThat(minimal.connectionsMaxReauthMs()).isZero();
        assertThat(minimal.oauth()).contains(new OAuthListenerSettings(
                URI.create("https://issuer.example/realms/kafka/certs"),
                new JwtPolicy("https://issuer.example/realms/kafka", Optional.empty(), "sub", Optional.empty(), 60_000),
                Duration.ofSeconds(300), Duration.ofSeconds(1), Optional.empty()));

        ListenerConfig full = BrokerConfig.fromEnvironment(Map.of("KAAS_CONNECTIONS_MAX_REAUTH_MS", "900000",
                "KAAS_LISTENERS", """
                [{"name":"oauth","port":9096,"tls":true,"authentication":{"type":"oauthbearer",                "validIssuerUri":"https://i","jwksEndpointUri":"http://127.0.0.1:8080/jwks",                "userNameClaim":"preferred_username","fallbackUserNameClaim":"client_id","checkAudience":true,                "clientId":"kafka","clockSkewSeconds":5,"jwksRefreshSeconds":60,"jwksMinRefreshPauseSeconds":10,                "maxSecondsWithoutReauthentication":3600}},                {"name":"scram","port":9095,"tls":false,"authentication":{"type":"scram-sha-512"}}]"""))
                .listeners().get(0);
        assertThat(full.oauth()).contains(new OAuthListenerSettings(URI.create("http://127.0.0.1:8080/jwks"),
                new JwtPolicy("https://i", Optional.of("kafka"), "preferred_username", Optional.of("client_id"), 5_000),
                Duration.ofSeconds(60), Duration.ofSeconds(10), Optional.of(Duration.ofSeconds(3600))));
        assertThat(full.connectionsMaxReauthMs()).as("the listener's own bound").isEqualTo(3_600_000);
    }

    @Test
    void kaasConnectionsMaxReauthMsBoundsEverySaslListenersSessions() {
        BrokerConfig config = BrokerConfig.fromEnvironment(Map.of("KAAS_CONNECTIONS_MAX_REAUTH_MS", "30000",
                "KAAS_LISTENERS", CHART));

        assertThat(config.listeners()).extracting(ListenerConfig::connectionsMaxReauthMs).containsOnly(30_000L);
        assertThatThrownBy(() -> BrokerConfig.fromEnvironment(Map.of("KAAS_CONNECTIONS_MAX_REAUTH_MS", "-1")))
                .hasMessageContaining("KAAS_CONNECTIONS_MAX_REAUTH_MS");
    }

    @Test
    void oauthSettingsTheBrokerCannotHonourAreRefused() {
        assertRefused(listener("o", 9096, true, "oauth"), "listener o: authentication oauth needs validIssuerUri");
        assertRefused(listener("o", 9096, true, "oauth"), "listener o: authentication oauth needs jwksEndpointUri");
        String base = "{\"name\":\"o\",\"port\":9096,\"tls\":true,\"authentication\":{\"type\":\"oauth\","
                + "\"validIssuerUri\":\"https://i\",";
        assertRefused(base + "\"jwksEndpointUri\":\"file:///etc/jwks.json\"}}",
                "listener o: authentication.jwksEndpointUri must be an http(s) URL, got file:///etc/jwks.json");
        assertRefused(base + "\"jwksEndpointUri\":\"https://i/jwks\",\"checkIssuer\":false}}",
                "listener o: authentication.checkIssuer is not an oauth setting kaas knows");
        assertRefused(base + "\"jwksEndpointUri\":\"https://i/jwks\",\"checkAudience\":true}}",
                "listener o: authentication.checkAudience needs clientId");
        assertRefused(base + "\"jwksEndpointUri\":\"https://i/jwks\",\"jwksRefreshSeconds\":0}}",
                "listener o: authentication.jwksRefreshSeconds must be an integer of at least 1, got 0");
    }

    @Test
    void duplicateNamesAndPortsAreRefused() {
        assertRefused("[" + listener("a", 9092, false, "none") + "," + listener("a", 9093, false, "none") + "]",
                "KAAS_LISTENERS: the name a is used by two listeners");
        assertRefused("[" + listener("a", 9092, false, "none") + "," + listener("b", 9092, false, "scram-sha-512") + "]",
                "KAAS_LISTENERS: listeners a and b both use port 9092");
    }

    @Test
    void malformedEntriesAndUnknownTypesAreRefusedWithWhatIsAccepted() {
        assertRefused("{\"name\":\"x\"}", "KAAS_LISTENERS: expected a JSON array of at least one listener");
        assertRefused("[]", "KAAS_LISTENERS: expected a JSON array of at least one listener");
        assertRefused("[{", "KAAS_LISTENERS is not JSON");
        assertRefused("[{\"port\":9092}]", "KAAS_LISTENERS[0]: needs a name");
        assertRefused("[{\"name\":\"x\",\"port\":70000}]", "listener x: port must be an integer from 0 to 65535");
        assertRefused("[{\"name\":\"x\",\"port\":9092,\"type\":\"public\"}]", "listener x: type must be internal or external");
        assertRefused(listener("x", 9092, false, "kerberos"), "listener x: authentication.type must be one of none, "
                + "scram-sha-256, scram-sha-512, plain, oauth, oauthbearer, tls, mtls, got kerberos");
    }

    @Test
    void kaasPortMustBeTheFirstListenersAndClusterListenersNeedFixedPorts() {
        assertThatThrownBy(() -> BrokerConfig.fromEnvironment(Map.of("KAAS_PORT", "9093", "KAAS_LISTENERS", CHART)))
                .hasMessageContaining("KAAS_PORT=9093 differs from the port of the first listener in KAAS_LISTENERS "
                        + "(plain, 9092)");
        assertThatThrownBy(() -> BrokerConfig.fromEnvironment(Map.of("MY_POD_NAME", "kaas-0", "KAAS_LISTENERS",
                "[" + listener("plain", 9092, false, "none") + "," + listener("authed", 0, false, "scram-sha-512") + "]")))
                .hasMessageContaining("listener authed: port 0 in a cluster; every broker must serve a listener on the same fixed port");
        assertThatThrownBy(() -> BrokerConfig.fromEnvironment(Map.of("KAAS_HEALTH_PORT", "9095", "KAAS_LISTENERS", CHART)))
                .hasMessageContaining("KAAS_HEALTH_PORT=9095 is also a listener's port");
    }

    @Test
    void everyProblemIsReportedAtOnce() {
        String json = "[" + listener("p", 9092, false, "plain") + "," + listener("m", 9092, false, "mtls") + "]";

        assertThatThrownBy(() -> BrokerConfig.fromEnvironment(Map.of("KAAS_LISTENERS", json)))
                .hasMessageContaining("listener p: authentication plain")
                .hasMessageContaining("listener m: authentication tls")
                .hasMessageContaining("listeners p and m both use port 9092");
    }

    @Test
    void describeConfigsShowsEveryListenerByName() {
        BrokerConfig config = BrokerConfig.fromEnvironment(Map.of("KAAS_LISTENERS", CHART, "KAAS_BIND_HOST", "0.0.0.0",
                "KAAS_ADVERTISED_HOST", "kaas.example"));

        assertThat(BrokerConfigView.of(config).get("listeners").map(BrokerConfigs.Entry::value)).contains("PLAIN://0.0.0.0:9092,AUTHED://0.0.0.0:9095");
        assertThat(BrokerConfigView.of(config).get("advertised.listeners").map(BrokerConfigs.Entry::value))
                .contains("PLAIN://kaas.example:9092,AUTHED://kaas.example:9095");
        assertThat(BrokerConfigView.of(BrokerConfig.fromEnvironment(Map.of())).get("listeners").map(BrokerConfigs.Entry::value))
                .contains("PLAINTEXT://127.0.0.1:9092");
    }

    private static void assertRefused(String json, String message) {
        String listeners = json.startsWith("{\"name\":\"") && json.contains("\"authentication\"") ? "[" + json + "]" : json;
        assertThatThrownBy(() -> BrokerConfig.fromEnvironment(Map.of("KAAS_LISTENERS", listeners)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(message);
    }

    private static String listener(String name, int port, boolean tls, String authentication) {
        return "{\"name\":\"" + name + "\",\"port\":" + port + ",\"type\":\"internal\",\"tls\":" + tls
                + ",\"authentication\":{\"type\":\"" + authentication + "\"}}";
    }
}
