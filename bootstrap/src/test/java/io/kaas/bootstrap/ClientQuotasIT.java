package io.kaas.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.bootstrap.testing.ApacheTool;
import io.kaas.bootstrap.testing.EmbeddedKaas;
import io.kaas.bootstrap.testing.KaasBrokerExtension;
import java.nio.file.Files;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterClientQuotasOptions;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.apache.kafka.common.quota.ClientQuotaAlteration;
import org.apache.kafka.common.quota.ClientQuotaAlteration.Op;
import org.apache.kafka.common.quota.ClientQuotaEntity;
import org.apache.kafka.common.quota.ClientQuotaFilter;
import org.apache.kafka.common.quota.ClientQuotaFilterComponent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * AlterClientQuotas in standalone through a real AdminClient and Apache 3.7's own {@code kafka-configs}: a user's
 * quotas land in credentials.json under Apache's names, DescribeClientQuotas shows them (also after a restart), a
 * removal takes them out, and what kaas cannot keep or Apache refuses is refused entity by entity.
 */
class ClientQuotasIT {
    @RegisterExtension
    static final KaasBrokerExtension KAAS = KaasBrokerExtension.create();

    private static final ClientQuotaEntity ALICE = new ClientQuotaEntity(Map.of(ClientQuotaEntity.USER, "alice"));

    @Test
    void aUsersQuotasAreWrittenDescribedKeptAcrossARestartAndRemoved() throws Exception {
        EmbeddedKaas kaas = KAAS.kaas();
        try (Admin admin = Admin.create(kaas.adminConfig(Map.of()))) {
            admin.alterClientQuotas(List.of(new ClientQuotaAlteration(ALICE, List.of(
                    new Op("producer_byte_rate", 1_048_576.0), new Op("consumer_byte_rate", 2_097_152.0),
                    new Op("controller_mutation_rate", 10.0))))).all().get(30, TimeUnit.SECONDS);

            assertThat(describeAlice(admin)).isEqualTo(Map.of("producer_byte_rate", 1_048_576.0,
                    "consumer_byte_rate", 2_097_152.0, "controller_mutation_rate", 10.0));
            assertThat(Files.readString(kaas.dataDir().resolve("__cluster/credentials.json")))
                    .contains("\"producer_byte_rate\"").contains("\"controller_mutation_rate\"");
        }
        kaas.restart();
        try (Admin admin = Admin.create(kaas.adminConfig(Map.of()))) {
            assertThat(describeAlice(admin)).as("durable in credentials.json").containsEntry("producer_byte_rate",
                    1_048_576.0);

            admin.alterClientQuotas(List.of(new ClientQuotaAlteration(ALICE, List.of(
                    new Op("producer_byte_rate", null), new Op("consumer_byte_rate", null),
                    new Op("controller_mutation_rate", null))))).all().get(30, TimeUnit.SECONDS);
            assertThat(describeAlice(admin)).isEmpty();
            assertThat(Files.readString(kaas.dataDir().resolve("__cluster/credentials.json")))
                    .as("a user left with nothing is gone").doesNotContain("\"alice\"");
        }
    }

    @Test
    void clientIdDefaultAndPairQuotasAreWrittenDescribedByFilterAndKeptAcrossARestart() throws Exception {
        EmbeddedKaas kaas = KAAS.kaas();
        ClientQuotaEntity app = new ClientQuotaEntity(Map.of(ClientQuotaEntity.CLIENT_ID, "it-app"));
        ClientQuotaEntity defaultUser = new ClientQuotaEntity(Collections.singletonMap(ClientQuotaEntity.USER, null));
        ClientQuotaEntity daveApp = new ClientQuotaEntity(Map.of(ClientQuotaEntity.USER, "dave",
                ClientQuotaEntity.CLIENT_ID, "it-app"));
        try (Admin admin = Admin.create(kaas.adminConfig(Map.of()))) {
            admin.alterClientQuotas(List.of(
                    new ClientQuotaAlteration(app, List.of(new Op("producer_byte_rate", 4096.0))),
                    new ClientQuotaAlteration(defaultUser, List.of(new Op("consumer_byte_rate", 8192.0))),
                    new ClientQuotaAlteration(daveApp, List.of(new Op("request_percentage", 50.0)))))
                    .all().get(30, TimeUnit.SECONDS);

            assertThat(describe(admin, ClientQuotaFilter.containsOnly(List.of(
                    ClientQuotaFilterComponent.ofEntity(ClientQuotaEntity.CLIENT_ID, "it-app")))))
                    .isEqualTo(Map.of(app, Map.of("producer_byte_rate", 4096.0)));
            assertThat(describe(admin, ClientQuotaFilter.contains(List.of(
                    ClientQuotaFilterComponent.ofEntity(ClientQuotaEntity.CLIENT_ID, "it-app")))))
                    .as("not strict: the pair too").containsOnlyKeys(app, daveApp);
            assertThat(describe(admin, ClientQuotaFilter.containsOnly(List.of(
                    ClientQuotaFilterComponent.ofDefaultEntity(ClientQuotaEntity.USER)))))
                    .isEqualTo(Map.of(defaultUser, Map.of("consumer_byte_rate", 8192.0)));
            assertThat(describe(admin, ClientQuotaFilter.containsOnly(List.of(
                    ClientQuotaFilterComponent.ofEntityType(ClientQuotaEntity.USER),
                    ClientQuotaFilterComponent.ofEntityType(ClientQuotaEntity.CLIENT_ID)))))
                    .isEqualTo(Map.of(daveApp, Map.of("request_percentage", 50.0)));
            assertThat(Files.readString(kaas.dataDir().resolve("__cluster/client-quotas.json")))
                    .contains("\"it-app\"").contains("\"consumer_byte_rate\"");
        }
        kaas.restart();
        try (Admin admin = Admin.create(kaas.adminConfig(Map.of()))) {
            assertThat(describe(admin, ClientQuotaFilter.containsOnly(List.of(
                    ClientQuotaFilterComponent.ofDefaultEntity(ClientQuotaEntity.USER)))))
                    .as("durable in client-quotas.json").containsOnlyKeys(defaultUser);

            admin.alterClientQuotas(List.of(
                    new ClientQuotaAlteration(app, List.of(new Op("producer_byte_rate", null))),
                    new ClientQuotaAlteration(defaultUser, List.of(new Op("consumer_byte_rate", null))),
                    new ClientQuotaAlteration(daveApp, List.of(new Op("request_percentage", null)))))
                    .all().get(30, TimeUnit.SECONDS);
            assertThat(describe(admin, ClientQuotaFilter.contains(List.of(
                    ClientQuotaFilterComponent.ofEntity(ClientQuotaEntity.CLIENT_ID, "it-app"))))).isEmpty();
        }
    }

    @Test
    void kafkaConfigsSetsAndDescribesAClientIdsQuota() throws Exception {
        ApacheTool tools = ApacheTool.resolve();
        String bootstrap = KAAS.bootstrapServers();

        assertThat(tools.run("kafka.admin.ConfigCommand", List.of("--bootstrap-server", bootstrap, "--alter",
                "--add-config", "producer_byte_rate=1048576", "--entity-type", "clients", "--entity-name", "tool-app")))
                .contains("Completed updating config for client tool-app.");
        assertThat(tools.run("kafka.admin.ConfigCommand", List.of("--bootstrap-server", bootstrap, "--describe",
                "--entity-type", "clients", "--entity-name", "tool-app")))
                .contains("Quota configs for client-id 'tool-app' are producer_byte_rate=1048576.0");
    }

    @Test
    void kafkaConfigsSetsAndDescribesAUsersQuota() throws Exception {
        ApacheTool tools = ApacheTool.resolve();
        String bootstrap = KAAS.bootstrapServers();

        assertThat(tools.run("kafka.admin.ConfigCommand", List.of("--bootstrap-server", bootstrap, "--alter",
                "--add-config", "request_percentage=12.5", "--entity-type", "users", "--entity-name", "bob")))
                .contains("Completed updating config for user bob.");
        assertThat(tools.run("kafka.admin.ConfigCommand", List.of("--bootstrap-server", bootstrap, "--describe",
                "--entity-type", "users", "--entity-name", "bob")))
                .contains("Quota configs for user-principal 'bob' are request_percentage=12.5");
    }

    @Test
    void whatApacheRefusesIsRefusedPerEntityAndValidateOnlyWritesNothing() throws Exception {
        try (Admin admin = Admin.create(KAAS.kaas().adminConfig(Map.of()))) {
            ClientQuotaEntity ip = new ClientQuotaEntity(Map.of(ClientQuotaEntity.IP, "10.0.0.1"));
            ClientQuotaEntity carol = new ClientQuotaEntity(Map.of(ClientQuotaEntity.USER, "carol"));
            var results = admin.alterClientQuotas(List.of(
                    new ClientQuotaAlteration(ip, List.of(new Op("connection_creation_rate", 5.5))),
                    new ClientQuotaAlteration(carol, List.of(new Op("producer_byte_rate", 10.5))),
                    new ClientQuotaAlteration(ALICE, List.of(new Op("producer_byte_rate", 1024.0)))),
                    new AlterClientQuotasOptions().validateOnly(true)).values();

            assertThatThrownBy(() -> results.get(ip).get(30, TimeUnit.SECONDS)).cause()
                    .isInstanceOf(InvalidRequestException.class)
                    .hasMessage("connection_creation_rate cannot be a fractional value.");
            assertThatThrownBy(() -> results.get(carol).get(30, TimeUnit.SECONDS)).cause()
                    .isInstanceOf(InvalidRequestException.class)
                    .hasMessage("producer_byte_rate cannot be a fractional value.");
            results.get(ALICE).get(30, TimeUnit.SECONDS);
            assertThat(describeAlice(admin)).as("validate only").isEmpty();
        }
    }

    private static Map<ClientQuotaEntity, Map<String, Double>> describe(Admin admin, ClientQuotaFilter filter)
            throws Exception {
        return admin.describeClientQuotas(filter).entities().get(30, TimeUnit.SECONDS);
    }

    private static Map<String, Double> describeAlice(Admin admin) throws Exception {
        return admin.describeClientQuotas(ClientQuotaFilter.containsOnly(List.of(
                ClientQuotaFilterComponent.ofEntity(ClientQuotaEntity.USER, "alice")))).entities()
                .get(30, TimeUnit.SECONDS).getOrDefault(ALICE, Map.of());
    }
}
