package io.kaas.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.bootstrap.testing.ApacheTool;
import io.kaas.bootstrap.testing.EmbeddedKaas;
import io.kaas.bootstrap.testing.KaasBrokerExtension;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.config.SaslConfigs;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Apache Kafka 3.7's own {@code kafka-configs} ({@code kafka.admin.ConfigCommand}) managing SCRAM
 * users (KIP-554) on the plaintext listener; the user it creates then authenticates on the SCRAM
 * listener, and survives a broker restart (credentials.json).
 */
class ScramConfigCommandIT {
    private static final String TOOL = "kafka.admin.ConfigCommand";
    @RegisterExtension
    static final KaasBrokerExtension KAAS = KaasBrokerExtension.create().withEnv("KAAS_LISTENERS", listeners(0, 0));

    static ApacheTool tools;

    @BeforeAll
    static void resolveTools() throws Exception {
        tools = ApacheTool.resolve();
    }

    @Test
    void kafkaConfigsAddsDescribesAndDeletesAScramUserWhoThenAuthenticates() throws Exception {
        String added = configs("--alter", "--add-config", "SCRAM-SHA-512=[iterations=8192,password=dave-secret]",
                "--entity-type", "users", "--entity-name", "dave");
        assertThat(added).contains("Completed updating config for user dave.");

        assertThat(configs("--describe", "--entity-type", "users", "--entity-name", "dave"))
                .contains("SCRAM credential configs for user-principal 'dave' are SCRAM-SHA-512=iterations=8192");
        assertThat(authenticates("dave", "dave-secret")).isTrue();

        EmbeddedKaas kaas = KAAS.kaas();
        kaas.restart(Map.of("KAAS_LISTENERS", listeners(kaas.port(), kaas.broker().port("authed")))); // same ports
        assertThat(configs("--describe", "--entity-type", "users", "--entity-name", "dave"))
                .as("durable in credentials.json").contains("SCRAM-SHA-512=iterations=8192");
        assertThat(authenticates("dave", "dave-secret")).isTrue();

        assertThat(configs("--alter", "--delete-config", "SCRAM-SHA-512", "--entity-type", "users", "--entity-name", "dave"))
                .contains("Completed updating config for user dave.");
        assertThat(configs("--describe", "--entity-type", "users", "--entity-name", "dave"))
                .doesNotContain("SCRAM-SHA-512=iterations");
    }

    private static String listeners(int plainPort, int authedPort) {
        return "[{\"name\":\"plain\",\"port\":" + plainPort + ",\"type\":\"internal\",\"tls\":false,"
                + "\"authentication\":{\"type\":\"none\"}},{\"name\":\"authed\",\"port\":" + authedPort
                + ",\"type\":\"internal\",\"tls\":false,\"authentication\":{\"type\":\"scram-sha-512\"}}]";
    }

    private static boolean authenticates(String user, String password) throws Exception {
        EmbeddedKaas kaas = KAAS.kaas();
        try (Admin admin = Admin.create(kaas.adminConfig(Map.of(
                CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, kaas.broker().bootstrapServers("authed"),
                CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SASL_PLAINTEXT",
                SaslConfigs.SASL_MECHANISM, "SCRAM-SHA-512",
                SaslConfigs.SASL_JAAS_CONFIG, "org.apache.kafka.common.security.scram.ScramLoginModule required "
                        + "username=\"" + user + "\" password=\"" + password + "\";")))) {
            return admin.describeCluster().clusterId().get() != null;
        }
    }

    private static String configs(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("--bootstrap-server", KAAS.bootstrapServers()));
        command.addAll(List.of(args));
        return tools.run(TOOL, command);
    }
}
