package io.kaas.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.kaas.bootstrap.testing.EmbeddedKaas;
import io.kaas.bootstrap.testing.PollingConsumer;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.InvalidConfigurationException;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.junit.jupiter.api.Test;

/** Log levels changed at run time through the BROKER_LOGGER resource, as Apache 3.7 serves it (KIP-412). */
class BrokerLoggerIT {
    /** Logs each group event at DEBUG, on the coordinator's path. */
    private static final String GROUP_LOGGER = "io.kaas.application.group.CoordinatedGroup";

    @Test
    void levelsAreDescribedChangedAndObeyed() throws Exception {
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        PrintStream original = System.err;
        System.setErr(new PrintStream(new Tee(original, captured), true, StandardCharsets.UTF_8));
        try (EmbeddedKaas kaas = EmbeddedKaas.inTempDir(EmbeddedKaas.FAST_GROUPS).start(); Admin admin = kaas.admin()) {
            String topic = EmbeddedKaas.uniqueTopicName("logged");
            kaas.createTopic(topic, 1);
            ConfigResource broker = new ConfigResource(ConfigResource.Type.BROKER_LOGGER,
                    Integer.toString(kaas.broker().config().brokerId()));

            joinAndLeave(kaas, "quiet-group", topic);
            Map<String, ConfigEntry> before = loggers(admin, broker);
            assertThat(before.get("root").value()).isEqualTo("INFO");
            assertThat(before.get("root").source()).isEqualTo(ConfigEntry.ConfigSource.DYNAMIC_BROKER_LOGGER_CONFIG);
            assertThat(before.get(GROUP_LOGGER).value()).isEqualTo("INFO");
            assertThat(before.get("org.apache.kafka").value()).isEqualTo("WARN");
            assertThat(text(captured)).doesNotContain("group quiet-group:");

            // as in Apache, only a logger that exists may be set: a class's, not a package's nobody configured
            assertThatThrownBy(() -> alter(admin, broker, new AlterConfigOp(new ConfigEntry("io.kaas.application",
                    "DEBUG"), AlterConfigOp.OpType.SET))).hasCauseInstanceOf(InvalidConfigurationException.class);
            alter(admin, broker, new AlterConfigOp(new ConfigEntry(GROUP_LOGGER, "DEBUG"), AlterConfigOp.OpType.SET));
            assertThat(loggers(admin, broker).get(GROUP_LOGGER).value()).isEqualTo("DEBUG");
            joinAndLeave(kaas, "loud-group", topic);
            await().atMost(EmbeddedKaas.DEFAULT_TIMEOUT).until(() -> text(captured).contains("group loud-group:"));
            assertThat(text(captured)).contains("WARN BrokerLoggerConfigs - Updated the log level of " + GROUP_LOGGER
                    + " to DEBUG");

            alter(admin, broker, new AlterConfigOp(new ConfigEntry(GROUP_LOGGER, ""), AlterConfigOp.OpType.DELETE));
            assertThat(loggers(admin, broker).get(GROUP_LOGGER).value()).isEqualTo("INFO");
            joinAndLeave(kaas, "quiet-again", topic);
            assertThat(text(captured)).doesNotContain("group quiet-again:");
        } finally {
            System.setErr(original);
        }
    }

    @Test
    void badChangesAreRefusedAsApacheRefusesThem() throws Exception {
        try (EmbeddedKaas kaas = EmbeddedKaas.inTempDir(Map.of()).start(); Admin admin = kaas.admin()) {
            ConfigResource broker = new ConfigResource(ConfigResource.Type.BROKER_LOGGER,
                    Integer.toString(kaas.broker().config().brokerId()));
            String logger = "io.kaas.bootstrap.KaasBroker";
            assertThatThrownBy(() -> alter(admin, broker, new AlterConfigOp(new ConfigEntry(logger, "LOUD"),
                    AlterConfigOp.OpType.SET))).hasCauseInstanceOf(InvalidConfigurationException.class)
                    .hasMessageContaining("Cannot set the log level of " + logger + " to LOUD as it is not a supported "
                            + "log level. Valid log levels are DEBUG, ERROR, FATAL, INFO, TRACE, WARN");
            assertThatThrownBy(() -> alter(admin, broker, new AlterConfigOp(new ConfigEntry("no.such.Logger", "DEBUG"),
                    AlterConfigOp.OpType.SET))).hasCauseInstanceOf(InvalidConfigurationException.class)
                    .hasMessageContaining("Logger no.such.Logger does not exist!");
            assertThatThrownBy(() -> alter(admin, broker, new AlterConfigOp(new ConfigEntry(logger, "DEBUG"),
                    AlterConfigOp.OpType.APPEND))).hasCauseInstanceOf(InvalidRequestException.class)
                    .hasMessageContaining("APPEND operation is not allowed for the BROKER_LOGGER resource");
            assertThatThrownBy(() -> alter(admin, broker, new AlterConfigOp(new ConfigEntry("root", ""),
                    AlterConfigOp.OpType.DELETE))).hasCauseInstanceOf(InvalidRequestException.class)
                    .hasMessageContaining("Removing the log level of the root logger is not allowed");
            // all or nothing: a valid SET beside a refused one changes nothing
            assertThatThrownBy(() -> alter(admin, broker, new AlterConfigOp(new ConfigEntry(logger, "TRACE"),
                    AlterConfigOp.OpType.SET), new AlterConfigOp(new ConfigEntry("root", "NOISY"),
                    AlterConfigOp.OpType.SET))).hasCauseInstanceOf(InvalidConfigurationException.class);
            assertThat(loggers(admin, broker).get(logger).value()).isEqualTo("INFO");
        }
    }

    private static void joinAndLeave(EmbeddedKaas kaas, String group, String topic) {
        try (PollingConsumer member = kaas.groupMember(group, topic)) {
            await().atMost(EmbeddedKaas.DEFAULT_TIMEOUT).until(() -> member.generation() > 0);
        }
    }

    private static Map<String, ConfigEntry> loggers(Admin admin, ConfigResource broker) throws Exception {
        Config config = admin.describeConfigs(List.of(broker)).all().get().get(broker);
        return config.entries().stream().collect(java.util.stream.Collectors.toMap(ConfigEntry::name, e -> e));
    }

    private static void alter(Admin admin, ConfigResource broker, AlterConfigOp... ops)
            throws ExecutionException, InterruptedException {
        Map<ConfigResource, Collection<AlterConfigOp>> changes = Map.of(broker, List.of(ops));
        admin.incrementalAlterConfigs(changes).all().get();
    }

    private static String text(ByteArrayOutputStream captured) {
        synchronized (captured) {
            return captured.toString(StandardCharsets.UTF_8);
        }
    }

    /** Writes to the console as before and keeps a copy for the assertions. */
    private static final class Tee extends OutputStream {
        private final OutputStream console;
        private final ByteArrayOutputStream copy;

        Tee(OutputStream console, ByteArrayOutputStream copy) {
            this.console = console;
            this.copy = copy;
        }

        @Override
        public void write(int b) {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) {
            synchronized (copy) {
                copy.write(b, off, len);
            }
            try {
                console.write(b, off, len);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
    }
}
