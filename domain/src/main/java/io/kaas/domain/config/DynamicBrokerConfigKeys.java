package io.kaas.domain.config;

import static io.kaas.domain.config.ConfigType.BOOLEAN;
import static io.kaas.domain.config.ConfigType.CLASS;
import static io.kaas.domain.config.ConfigType.DOUBLE;
import static io.kaas.domain.config.ConfigType.INT;
import static io.kaas.domain.config.ConfigType.LIST;
import static io.kaas.domain.config.ConfigType.LONG;
import static io.kaas.domain.config.ConfigType.PASSWORD;
import static io.kaas.domain.config.ConfigType.SHORT;
import static io.kaas.domain.config.ConfigType.STRING;
import static io.kaas.domain.config.DynamicBrokerConfigKeys.Scope.CLUSTER;
import static io.kaas.domain.config.DynamicBrokerConfigKeys.Scope.PER_BROKER;
import static io.kaas.domain.config.DynamicBrokerConfigKeys.Scope.PER_LISTENER;
import static io.kaas.domain.config.Validator.atLeast;
import static io.kaas.domain.config.Validator.between;
import static io.kaas.domain.config.Validator.listOf;
import static io.kaas.domain.config.Validator.oneOf;

import java.util.Collection;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The broker configs Apache Kafka 3.7 lets IncrementalAlterConfigs and AlterConfigs change while a
 * broker runs: its {@code DynamicBrokerConfig.AllDynamicConfigs} (security, listener, log cleaner,
 * thread pool, connection quota, {@code log.*} topic defaults, metrics reporter and producer-state
 * configs) and the replication quotas, with each one's type, default, check and where it may be set.
 * Every other config Apache's broker knows is {@linkplain StaticBrokerConfigNames static}.
 */
public final class DynamicBrokerConfigKeys {

    /** Where a dynamic config may be set. */
    public enum Scope {
        /** On one broker, or as the cluster-wide default (the resource named ""). */
        CLUSTER,
        /** On one broker only: Apache refuses it as a cluster-wide default. */
        PER_BROKER,
        /** Only under a listener prefix ({@code listener.name.<listener>.<name>}): the keystore and truststore. */
        PER_LISTENER
    }

    /**
     * One dynamic broker config.
     *
     * @param defaultValue Apache's default in canonical text, or null when it has none
     * @param validator    the check on a parsed value, or null when any value of the type is valid
     */
    public record Key(String name, ConfigType type, String defaultValue, Validator validator, Scope scope) {
        public Key {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(type, "type");
            Objects.requireNonNull(scope, "scope");
        }

        /** Parses and checks {@code raw}; INVALID_CONFIG with Apache's message when it is not acceptable. */
        public Object parse(String raw) {
            Object value = ConfigValues.parse(name, type, raw);
            if (validator != null) {
                validator.ensureValid(name, value);
            }
            return value;
        }

        /** Passwords are never reported. */
        public boolean sensitive() {
            return type == PASSWORD;
        }
    }

    private static final Map<String, Key> KEYS = new TreeMap<>();

    static {
        key("advertised.listeners", STRING, null, null, PER_BROKER);
        key("background.threads", INT, "10", atLeast(1), CLUSTER);
        key("compression.type", STRING, "producer",
                oneOf("uncompressed", "zstd", "lz4", "snappy", "gzip", "producer"), CLUSTER);
        key("follower.replication.throttled.rate", LONG, "9223372036854775807", atLeast(0), CLUSTER);
        key("leader.replication.throttled.rate", LONG, "9223372036854775807", atLeast(0), CLUSTER);
        key("listener.security.protocol.map", STRING,
                "PLAINTEXT:PLAINTEXT,SSL:SSL,SASL_PLAINTEXT:SASL_PLAINTEXT,SASL_SSL:SASL_SSL", null, PER_BROKER);
        key("listeners", STRING, "PLAINTEXT://:9092", null, PER_BROKER);
        key("log.cleaner.backoff.ms", LONG, "15000", atLeast(0), CLUSTER);
        key("log.cleaner.dedupe.buffer.size", LONG, "134217728", null, CLUSTER);
        key("log.cleaner.delete.retention.ms", LONG, "86400000", atLeast(0), CLUSTER);
        key("log.cleaner.io.buffer.load.factor", DOUBLE, "0.9", null, CLUSTER);
        key("log.cleaner.io.buffer.size", INT, "524288", atLeast(0), CLUSTER);
        key("log.cleaner.io.max.bytes.per.second", DOUBLE, "1.7976931348623157E308", null, CLUSTER);
        key("log.cleaner.max.compaction.lag.ms", LONG, "9223372036854775807", atLeast(1), CLUSTER);
        key("log.cleaner.min.cleanable.ratio", DOUBLE, "0.5", between(0, 1), CLUSTER);
        key("log.cleaner.min.compaction.lag.ms", LONG, "0", atLeast(0), CLUSTER);
        key("log.cleaner.threads", INT, "1", atLeast(0), CLUSTER);
        key("log.cleanup.policy", LIST, "delete", listOf("compact", "delete"), CLUSTER);
        key("log.flush.interval.messages", LONG, "9223372036854775807", atLeast(1), CLUSTER);
        key("log.flush.interval.ms", LONG, null, null, CLUSTER);
        key("log.index.interval.bytes", INT, "4096", atLeast(0), CLUSTER);
        key("log.index.size.max.bytes", INT, "10485760", atLeast(4), CLUSTER);
        key("log.local.retention.bytes", LONG, "-2", atLeast(-2), CLUSTER);
        key("log.local.retention.ms", LONG, "-2", atLeast(-2), CLUSTER);
        key("log.message.downconversion.enable", BOOLEAN, "true", null, CLUSTER);
        key("log.message.timestamp.after.max.ms", LONG, "9223372036854775807", atLeast(0), CLUSTER);
        key("log.message.timestamp.before.max.ms", LONG, "9223372036854775807", atLeast(0), CLUSTER);
        key("log.message.timestamp.difference.max.ms", LONG, "9223372036854775807", atLeast(0), CLUSTER);
        key("log.message.timestamp.type", STRING, "CreateTime", oneOf("CreateTime", "LogAppendTime"), CLUSTER);
        key("log.preallocate", BOOLEAN, "false", null, CLUSTER);
        key("log.retention.bytes", LONG, "-1", null, CLUSTER);
        key("log.retention.ms", LONG, null, null, CLUSTER);
        key("log.roll.jitter.ms", LONG, null, null, CLUSTER);
        key("log.roll.ms", LONG, null, null, CLUSTER);
        key("log.segment.bytes", INT, "1073741824", atLeast(14), CLUSTER);
        key("log.segment.delete.delay.ms", LONG, "60000", atLeast(0), CLUSTER);
        key("max.connection.creation.rate", INT, "2147483647", atLeast(0), CLUSTER);
        key("max.connections", INT, "2147483647", atLeast(0), CLUSTER);
        key("max.connections.per.ip", INT, "2147483647", atLeast(0), CLUSTER);
        key("max.connections.per.ip.overrides", STRING, "", null, CLUSTER);
        key("message.max.bytes", INT, "1048588", atLeast(0), CLUSTER);
        key("metric.reporters", LIST, "", null, CLUSTER);
        key("min.insync.replicas", INT, "1", atLeast(1), CLUSTER);
        key("num.io.threads", INT, "8", atLeast(1), CLUSTER);
        key("num.network.threads", INT, "3", atLeast(1), CLUSTER);
        key("num.recovery.threads.per.data.dir", INT, "1", atLeast(1), CLUSTER);
        key("num.replica.fetchers", INT, "1", null, CLUSTER);
        key("principal.builder.class", CLASS,
                "org.apache.kafka.common.security.authenticator.DefaultKafkaPrincipalBuilder", null, PER_BROKER);
        key("producer.id.expiration.ms", INT, "86400000", atLeast(1), CLUSTER);
        key("remote.log.index.file.cache.total.size.bytes", LONG, "1073741824", atLeast(1), CLUSTER);
        key("replica.alter.log.dirs.io.max.bytes.per.second", LONG, "9223372036854775807", atLeast(0), CLUSTER);
        key("sasl.enabled.mechanisms", LIST, "GSSAPI", null, PER_BROKER);
        key("sasl.jaas.config", PASSWORD, null, null, PER_BROKER);
        key("sasl.kerberos.kinit.cmd", STRING, "/usr/bin/kinit", null, PER_BROKER);
        key("sasl.kerberos.min.time.before.relogin", LONG, "60000", null, PER_BROKER);
        key("sasl.kerberos.principal.to.local.rules", LIST, "DEFAULT", null, PER_BROKER);
        key("sasl.kerberos.service.name", STRING, null, null, PER_BROKER);
        key("sasl.kerberos.ticket.renew.jitter", DOUBLE, "0.05", null, PER_BROKER);
        key("sasl.kerberos.ticket.renew.window.factor", DOUBLE, "0.8", null, PER_BROKER);
        key("sasl.login.refresh.buffer.seconds", SHORT, "300", null, PER_BROKER);
        key("sasl.login.refresh.min.period.seconds", SHORT, "60", null, PER_BROKER);
        key("sasl.login.refresh.window.factor", DOUBLE, "0.8", null, PER_BROKER);
        key("sasl.login.refresh.window.jitter", DOUBLE, "0.05", null, PER_BROKER);
        key("sasl.mechanism.inter.broker.protocol", STRING, "GSSAPI", null, PER_BROKER);
        key("ssl.cipher.suites", LIST, "", null, PER_BROKER);
        key("ssl.client.auth", STRING, "none", oneOf("required", "requested", "none"), PER_BROKER);
        key("ssl.enabled.protocols", LIST, "TLSv1.2,TLSv1.3", null, PER_BROKER);
        key("ssl.endpoint.identification.algorithm", STRING, "https", null, PER_BROKER);
        key("ssl.engine.factory.class", CLASS, null, null, PER_BROKER);
        key("ssl.key.password", PASSWORD, null, null, PER_LISTENER);
        key("ssl.keymanager.algorithm", STRING, "SunX509", null, PER_BROKER);
        key("ssl.keystore.certificate.chain", PASSWORD, null, null, PER_LISTENER);
        key("ssl.keystore.key", PASSWORD, null, null, PER_LISTENER);
        key("ssl.keystore.location", STRING, null, null, PER_LISTENER);
        key("ssl.keystore.password", PASSWORD, null, null, PER_LISTENER);
        key("ssl.keystore.type", STRING, "JKS", null, PER_LISTENER);
        key("ssl.protocol", STRING, "TLSv1.3", null, PER_BROKER);
        key("ssl.provider", STRING, null, null, PER_BROKER);
        key("ssl.secure.random.implementation", STRING, null, null, PER_BROKER);
        key("ssl.trustmanager.algorithm", STRING, "PKIX", null, PER_BROKER);
        key("ssl.truststore.certificates", PASSWORD, null, null, PER_LISTENER);
        key("ssl.truststore.location", STRING, null, null, PER_LISTENER);
        key("ssl.truststore.password", PASSWORD, null, null, PER_LISTENER);
        key("ssl.truststore.type", STRING, "JKS", null, PER_LISTENER);
        key("transaction.partition.verification.enable", BOOLEAN, "true", null, CLUSTER);
        key("unclean.leader.election.enable", BOOLEAN, "false", null, CLUSTER);
    }

    private DynamicBrokerConfigKeys() {
    }

    private static void key(String name, ConfigType type, String defaultValue, Validator validator, Scope scope) {
        KEYS.put(name, new Key(name, type, defaultValue, validator, scope));
    }

    public static Optional<Key> get(String name) {
        return Optional.ofNullable(KEYS.get(name));
    }

    /** Every dynamic broker config, sorted by name. */
    public static Collection<Key> all() {
        return Collections.unmodifiableCollection(KEYS.values());
    }
}
