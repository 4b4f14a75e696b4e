package io.kaas.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kaas.bootstrap.telemetry.PrometheusText;
import io.kaas.bootstrap.testing.ApacheTool;
import io.kaas.bootstrap.testing.KaasBrokerExtension;
import io.kaas.bootstrap.testing.RawKafkaConnection;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.requests.ApiVersionsRequest;
import org.apache.kafka.common.requests.ApiVersionsResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Apache 3.7's broker connection limits on a standalone broker, set at runtime with Apache's own
 * {@code kafka-configs --entity-type brokers --entity-default}: {@code max.connections.per.ip} and its overrides
 * close the connections past an IP's maximum unserved, {@code max.connections} stops the listener accepting until a
 * connection closes, {@code max.connection.creation.rate} spaces connections out; each counted in
 * {@code /metrics}. Every connection comes from 127.0.0.1, the tool's included, so each test frees its connections
 * before the next tool run. Rates over 2 samples of a second.
 */
class ConnectionLimitsIT {
    @RegisterExtension
    static final KaasBrokerExtension KAAS = KaasBrokerExtension.create()
            .withEnv(Map.of("KAAS_QUOTA_WINDOW_NUM", "2", "KAAS_QUOTA_WINDOW_SIZE_SECONDS", "1",
                    "KAAS_MAX_CONNECTIONS_PER_IP_OVERRIDES", "10.255.0.1:7"));
    private static final ConfigResource CLUSTER_DEFAULT = new ConfigResource(ConfigResource.Type.BROKER, "");

    private static ApacheTool tools;
    private final List<RawKafkaConnection> opened = new ArrayList<>();

    @BeforeAll
    static void resolveTools() throws Exception {
        tools = ApacheTool.resolve();
    }

    @AfterEach
    void closeConnectionsAndRemoveLimits() throws Exception {
        opened.forEach(RawKafkaConnection::close);
        try (Admin admin = Admin.create(KAAS.kaas().adminConfig(Map.of()))) {
            admin.incrementalAlterConfigs(Map.of(CLUSTER_DEFAULT, List.of("max.connections.per.ip",
                    "max.connections.per.ip.overrides", "max.connections", "max.connection.creation.rate",
                    "listener.name.plaintext.max.connections").stream()
                    .map(name -> new AlterConfigOp(new ConfigEntry(name, null), AlterConfigOp.OpType.DELETE))
                    .toList())).all().get(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void theConnectionsPastAnIpsMaximumAreClosedUnservedAndAClosedOneMakesRoom() throws Exception {
        assertThat(kafkaConfigs("--add-config", "max.connections.per.ip=3"))
                .contains("Completed updating default config for brokers in the cluster.");
        assertThat(tools.run("kafka.admin.ConfigCommand", List.of("--bootstrap-server", KAAS.bootstrapServers(),
                "--describe", "--entity-type", "brokers", "--entity-default")))
                .contains("max.connections.per.ip=3 sensitive=false synonyms={DYNAMIC_DEFAULT_BROKER_CONFIG:"
                        + "max.connections.per.ip=3");

        List<RawKafkaConnection> served = fillUpTo(3);
        double refusedBefore = refused("max.connections.per.ip");
        for (int i = 0; i < 4; i++) {
            assertThat(answered(open())).as("connection %d past the 3", i + 1).isFalse();
        }
        assertThat(refused("max.connections.per.ip")).as("each counted").isEqualTo(refusedBefore + 4);
        served.forEach(raw -> assertThat(answered(raw)).as("the 3 are still served").isTrue());

        served.remove(0).close();
        await().atMost(Duration.ofSeconds(30)).until(() -> answered(open()));
    }

    @Test
    void anOverrideGives127001ItsOwnMaximum() throws Exception {
        kafkaConfigs("--add-config", "max.connections.per.ip=1,max.connections.per.ip.overrides=127.0.0.1:5");

        fillUpTo(5);
        assertThat(answered(open())).as("the sixth").isFalse();
    }

    @Test
    void atTheBrokersMaximumTheListenerHoldsANewConnectionUntilAnotherCloses() throws Exception {
        kafkaConfigs("--add-config", "max.connections=2");
        List<RawKafkaConnection> served = fillUpTo(2);
        double heldBefore = held("max.connections");

        RawKafkaConnection third = open(); // the kernel completes the handshake; the broker does not read it
        CompletableFuture<Boolean> answer = CompletableFuture.supplyAsync(() -> answered(third));
        await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(5)).until(() -> !answer.isDone());
        assertThat(held("max.connections")).isEqualTo(heldBefore + 1);

        served.get(0).close();
        assertThat(answer.get(30, TimeUnit.SECONDS)).as("served once a slot freed").isTrue();
        assertThat(answered(served.get(1))).isTrue();
    }

    @Test
    void aListenersOwnMaximumUnderItsPrefixHoldsItsConnections() throws Exception {
        // the one default listener is Apache's PLAINTEXT: its prefix is listener.name.plaintext. (2, not 1: an admin
        // client holds its bootstrap connection while it opens the broker's, and the cleanup needs one)
        kafkaConfigs("--add-config", "listener.name.plaintext.max.connections=2");
        List<RawKafkaConnection> served = fillUpTo(2);

        RawKafkaConnection third = open();
        CompletableFuture<Boolean> answer = CompletableFuture.supplyAsync(() -> answered(third));
        await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(5)).until(() -> !answer.isDone());

        served.get(0).close();
        assertThat(answer.get(30, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void aConnectionCreationRateSpacesConnectionsOutWithoutClosingAny() throws Exception {
        kafkaConfigs("--add-config", "max.connection.creation.rate=2");
        double heldBefore = held("max.connection.creation.rate");

        long start = System.nanoTime();
        List<RawKafkaConnection> burst = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            burst.add(open());
        }
        for (RawKafkaConnection raw : burst) {
            assertThat(answered(raw)).as("delayed, never closed").isTrue();
        }
        // 2 a second measured over at least a second: the 6 (and the tool's) need more than 2 seconds
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThan(Duration.ofSeconds(2));
        assertThat(held("max.connection.creation.rate")).isGreaterThan(heldBefore);
    }

    @Test
    void theStartupSettingIsDescribedAsTheBrokersStaticConfig() throws Exception {
        try (Admin admin = Admin.create(KAAS.kaas().adminConfig(Map.of()))) {
            Config config = admin.describeConfigs(List.of(new ConfigResource(ConfigResource.Type.BROKER, "0")))
                    .all().get(30, TimeUnit.SECONDS).values().iterator().next();
            ConfigEntry overrides = config.get("max.connections.per.ip.overrides");
            assertThat(overrides.value()).isEqualTo("10.255.0.1:7");
            assertThat(overrides.source()).isEqualTo(ConfigEntry.ConfigSource.STATIC_BROKER_CONFIG);
            assertThat(config.get("max.connections").value()).isEqualTo(String.valueOf(Integer.MAX_VALUE));
        }
    }

    /** Opens connections until {@code n} are served: the tool's last connections may still be closing. */
    private List<RawKafkaConnection> fillUpTo(int n) {
        List<RawKafkaConnection> served = new ArrayList<>();
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            RawKafkaConnection raw = open();
            if (answered(raw)) {
                served.add(raw);
            } else {
                raw.close();
            }
            return served.size() == n;
        });
        return served;
    }

    private RawKafkaConnection open() {
        RawKafkaConnection raw = RawKafkaConnection.connect("127.0.0.1", KAAS.kaas().port());
        opened.add(raw);
        return raw;
    }

    /** Whether an ApiVersions on {@code raw} is answered; false when the broker closes the connection instead. */
    private static boolean answered(RawKafkaConnection raw) {
        try {
            ApiVersionsResponse answer = raw.send(new ApiVersionsRequest.Builder().build());
            return answer.data().errorCode() == 0;
        } catch (UncheckedIOException e) {
            return false;
        }
    }

    private static String kafkaConfigs(String... change) throws Exception {
        List<String> args = new ArrayList<>(List.of("--bootstrap-server", KAAS.bootstrapServers(), "--alter",
                "--entity-type", "brokers", "--entity-default"));
        args.addAll(List.of(change));
        return tools.run("kafka.admin.ConfigCommand", args);
    }

    private static double refused(String limit) throws Exception {
        return counter("kaas_connections_refused_total", limit);
    }

    private static double held(String limit) throws Exception {
        return counter("kaas_connections_held_total", limit);
    }

    private static double counter(String name, String limit) throws Exception {
        return PrometheusText.scrape(KAAS.kaas().broker().healthPort())
                .value(name, Map.of("listener", "plain", "limit", limit)).orElse(0.0);
    }
}
