package io.kaas.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kaas.bootstrap.testing.ApacheTool;
import io.kaas.bootstrap.testing.KaasBrokerExtension;
import io.kaas.bootstrap.testing.RawKafkaConnection;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.quota.ClientQuotaAlteration;
import org.apache.kafka.common.quota.ClientQuotaAlteration.Op;
import org.apache.kafka.common.quota.ClientQuotaEntity;
import org.apache.kafka.common.quota.ClientQuotaFilter;
import org.apache.kafka.common.quota.ClientQuotaFilterComponent;
import org.apache.kafka.common.requests.ApiVersionsRequest;
import org.apache.kafka.common.requests.ApiVersionsResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * KIP-612's {@code connection_creation_rate} per IP in standalone: Apache 3.7's {@code kafka-configs --entity-type
 * ips} sets and describes it, the AdminClient round-trips a named and the default IP entity (kept across a restart in
 * client-quotas.json), and a burst of connections from 127.0.0.1 over its quota has the connections past the rate
 * closed unserved. Rates over 2 samples of a second, so the burst allowance is one second's worth.
 */
class IpConnectionQuotaIT {
    @RegisterExtension
    static final KaasBrokerExtension KAAS = KaasBrokerExtension.create()
            .withEnv(Map.of("KAAS_QUOTA_WINDOW_NUM", "2", "KAAS_QUOTA_WINDOW_SIZE_SECONDS", "1"));

    private static final ClientQuotaEntity LOCALHOST = new ClientQuotaEntity(Map.of(ClientQuotaEntity.IP,
            "127.0.0.1"));
    private static final ClientQuotaEntity DEFAULT_IP = new ClientQuotaEntity(Collections.singletonMap(
            ClientQuotaEntity.IP, null));

    @AfterEach
    void removeQuotas() throws Exception {
        alter(LOCALHOST, null);
        alter(DEFAULT_IP, null);
    }

    @Test
    void kafkaConfigsSetsAndDescribesAnIpsConnectionCreationRate() throws Exception {
        ApacheTool tools = ApacheTool.resolve();
        String bootstrap = KAAS.bootstrapServers();

        assertThat(tools.run("kafka.admin.ConfigCommand", List.of("--bootstrap-server", bootstrap, "--alter",
                "--add-config", "connection_creation_rate=500", "--entity-type", "ips", "--entity-name", "127.0.0.1")))
                .contains("Completed updating config for ip 127.0.0.1.");
        assertThat(tools.run("kafka.admin.ConfigCommand", List.of("--bootstrap-server", bootstrap, "--describe",
                "--entity-type", "ips", "--entity-name", "127.0.0.1")))
                .contains("Quota configs for ip '127.0.0.1' are connection_creation_rate=500.0");
        assertThat(tools.run("kafka.admin.ConfigCommand", List.of("--bootstrap-server", bootstrap, "--alter",
                "--delete-config", "connection_creation_rate", "--entity-type", "ips", "--entity-name", "127.0.0.1")))
                .contains("Completed updating config for ip 127.0.0.1.");
        assertThat(describeIps()).isEmpty();
    }

    @Test
    void aNamedAndTheDefaultIpEntityAreDescribedAndKeptAcrossARestart() throws Exception {
        alter(LOCALHOST, 1_000.0);
        alter(DEFAULT_IP, 2_000.0);
        assertThat(describeIps()).isEqualTo(Map.of(LOCALHOST, Map.of("connection_creation_rate", 1_000.0),
                DEFAULT_IP, Map.of("connection_creation_rate", 2_000.0)));
        assertThat(Files.readString(KAAS.kaas().dataDir().resolve("__cluster/client-quotas.json")))
                .contains("\"ip\"").contains("\"127.0.0.1\"");

        KAAS.kaas().restart();
        assertThat(describeIps()).as("durable in client-quotas.json").containsOnlyKeys(LOCALHOST, DEFAULT_IP);
    }

    @Test
    void aConnectionBurstOverTheIpsRateHasTheConnectionsPastTheRateClosedUnserved() throws Exception {
        alter(LOCALHOST, 3.0);
        // The IP's window may still hold this test's admin connections and an earlier test's; throttled attempts are
        // taken back out of the rate, so probing until one is served waits for the window to drain.
        await("3 a second: a connection is served once the window has room")
                .atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(250))
                .until(() -> {
                    try (RawKafkaConnection probe = RawKafkaConnection.connect("127.0.0.1", KAAS.kaas().port())) {
                        return answered(probe);
                    }
                });
        // all opened first, so the burst is one however slowly each is then asked
        List<RawKafkaConnection> burst = new ArrayList<>();
        int closed = 0;
        try {
            for (int i = 0; i < 12; i++) {
                burst.add(RawKafkaConnection.connect("127.0.0.1", KAAS.kaas().port()));
            }
            for (RawKafkaConnection raw : burst) {
                closed += answered(raw) ? 0 : 1;
            }
        } finally {
            burst.forEach(RawKafkaConnection::close);
        }
        assertThat(closed).as("12 in quick succession: those past the rate are closed").isPositive();

        alter(LOCALHOST, null);
        try (RawKafkaConnection raw = RawKafkaConnection.connect("127.0.0.1", KAAS.kaas().port())) {
            ApiVersionsResponse answer = raw.send(new ApiVersionsRequest.Builder().build());
            assertThat(answer.data().errorCode()).as("without the quota every connection is served").isZero();
        }
    }

    /** Whether an ApiVersions on {@code raw} is answered; false when the broker closes the connection instead. */
    private static boolean answered(RawKafkaConnection raw) {
        try {
            ApiVersionsResponse answer = raw.send(new ApiVersionsRequest.Builder().build());
            return answer.data().errorCode() == 0;
        } catch (UncheckedIOException e) {
            return false; // end of stream or reset: closed unserved
        }
    }

    private static Map<ClientQuotaEntity, Map<String, Double>> describeIps() throws Exception {
        try (Admin admin = Admin.create(KAAS.kaas().adminConfig(Map.of()))) {
            return admin.describeClientQuotas(ClientQuotaFilter.contains(List.of(
                    ClientQuotaFilterComponent.ofEntityType(ClientQuotaEntity.IP)))).entities()
                    .get(30, TimeUnit.SECONDS);
        }
    }

    private static void alter(ClientQuotaEntity entity, Double rate) throws Exception {
        try (Admin admin = Admin.create(KAAS.kaas().adminConfig(Map.of()))) {
            admin.alterClientQuotas(List.of(new ClientQuotaAlteration(entity, List.of(
                    new Op("connection_creation_rate", rate))))).all().get(30, TimeUnit.SECONDS);
        }
    }
}
