package io.kaas.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.kaas.bootstrap.testing.EmbeddedKaas;
import java.net.BindException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Starting and restarting brokers: what happens when the port or the data directory is taken. */
class BrokerLifecycleIT {
    @Test
    void aSecondBrokerOnTheSameDataDirectoryRefusesToStartUntilTheFirstStops(@TempDir Path dataDir) throws Exception {
        BrokerConfig config = onEphemeralPort(dataDir);
        try (KaasBroker first = KaasBroker.start(config)) {
            Set<Thread> before = Thread.getAllStackTraces().keySet();

            assertThatThrownBy(() -> KaasBroker.start(config)).isInstanceOf(IllegalStateException.class)
                    .hasMessage("Failed to acquire lock on file .lock in " + dataDir.toAbsolutePath()
                            + ". A broker in another process or thread is using this directory.");

            assertThat(newBrokerThreads(before)).as("the refused broker started nothing").isEmpty();
        }
        try (KaasBroker second = KaasBroker.start(config)) {
            assertThat(second.port()).isPositive();
        }
    }

    @Test
    void aBrokerProcessHoldsItsDataDirectoryUntilItDiesEvenByKillNine(@TempDir Path dir) throws Exception {
        Path dataDir = dir.resolve("data");
        try (ChildBroker other = ChildBroker.start(dataDir, dir.resolve("other.log"), Map.of())) {
            assertThatThrownBy(() -> KaasBroker.start(onEphemeralPort(dataDir)))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("Failed to acquire lock");

            other.kill9();
        }
        try (KaasBroker after = KaasBroker.start(onEphemeralPort(dataDir))) {
            assertThat(after.port()).isPositive();
        }
    }

    private static BrokerConfig onEphemeralPort(Path dataDir) {
        return BrokerConfig.fromEnvironment(Map.of("KAAS_BIND_HOST", "127.0.0.1", "KAAS_PORT", "0",
                "KAAS_HEALTH_PORT", "0", "KAAS_DATA_DIR", dataDir.toString()));
    }

    @Test
    void aTakenPortFailsTheStartAndLeavesNoThreadsBehind(@TempDir Path dataDir) throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"))) {
            Set<Thread> before = Thread.getAllStackTraces().keySet();
            BrokerConfig config = BrokerConfig.fromEnvironment(Map.of(
                    "KAAS_BIND_HOST", "127.0.0.1",
                    "KAAS_PORT", Integer.toString(taken.getLocalPort()),
                    "KAAS_HEALTH_PORT", "0",
                    "KAAS_DATA_DIR", dataDir.toString()));

            assertThatThrownBy(() -> KaasBroker.start(config)).isInstanceOf(BindException.class);

            await("the failed broker's threads to end").atMost(Duration.ofSeconds(10))
                    .untilAsserted(() -> assertThat(newBrokerThreads(before)).isEmpty());
        }
    }

    @Test
    void aTakenHealthPortFailsTheStartNamingTheVariableAndLeavesNoThreadsBehind(@TempDir Path dataDir) throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"))) {
            Set<Thread> before = Thread.getAllStackTraces().keySet();
            BrokerConfig config = BrokerConfig.fromEnvironment(Map.of(
                    "KAAS_BIND_HOST", "127.0.0.1",
                    "KAAS_PORT", "0",
                    "KAAS_HEALTH_PORT", Integer.toString(taken.getLocalPort()),
                    "KAAS_DATA_DIR", dataDir.toString()));

            assertThatThrownBy(() -> KaasBroker.start(config)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("KAAS_HEALTH_PORT").hasMessageContaining(Integer.toString(taken.getLocalPort()));

            await("the failed broker's threads to end").atMost(Duration.ofSeconds(10))
                    .untilAsserted(() -> assertThat(newBrokerThreads(before)).isEmpty());
            try (KaasBroker again = KaasBroker.start(onEphemeralPort(dataDir))) {
                assertThat(again.port()).as("the data directory lock was released").isPositive();
            }
        }
    }

    @Test
    void theFixtureRestartsOnTheSamePortOrANewOneWhenItIsTaken() throws Exception {
        try (EmbeddedKaas kaas = EmbeddedKaas.inTempDir(Map.of()).start()) {
            kaas.createTopic("kept", 2);
            int first = kaas.port();

            kaas.restart();
            assertThat(kaas.port()).isEqualTo(first);

            kaas.stopBroker();
            try (ServerSocket squatter = new ServerSocket(first, 50, InetAddress.getByName("127.0.0.1"))) {
                kaas.restart();
                assertThat(kaas.port()).isNotEqualTo(first);
                assertThat(kaas.admin().listTopics().names().get()).contains("kept");
            }
        }
    }

    /** Threads a broker starts (Netty event loops, the scheduler) that were not running before. */
    private static List<String> newBrokerThreads(Set<Thread> before) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> !before.contains(t) && t.isAlive())
                .map(Thread::getName)
                .filter(name -> name.startsWith("kaas-"))
                .toList();
    }
}
