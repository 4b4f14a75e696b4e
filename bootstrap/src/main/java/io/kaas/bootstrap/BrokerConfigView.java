package io.kaas.bootstrap;

import io.kaas.application.log.LogDirectories;
import io.kaas.application.log.MemoryLogEngine;
import io.kaas.domain.config.BrokerConfigs;
import io.kaas.domain.config.ConfigType;
import io.kaas.domain.txn.TxnSlots;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The broker's configuration under Apache Kafka's broker-config names, for DescribeConfigs: each
 * setting kaas really runs with, its value, its default (the value with an empty environment), and
 * whether a {@code KAAS_*} variable set it. Topic configs take their defaults from the same table.
 */
final class BrokerConfigView {
    private static final String PLAINTEXT = "PLAINTEXT";

    private BrokerConfigView() {
    }

    /** One Apache setting backed by one or more {@code KAAS_*} variables. */
    private record Row(String name, ConfigType type, Function<BrokerConfig, Object> value, String documentation,
                       String... variables) {
    }

    /**
     * Apache's defaults where kaas deliberately runs with another one: kaas's value then counts as set by the
     * broker's configuration (STATIC_BROKER_CONFIG), as on an Apache broker whose server.properties set it.
     */
    private static final Map<String, String> APACHE_DEFAULTS =
            Map.of("log.flush.interval.messages", String.valueOf(Long.MAX_VALUE));

    private static final List<Row> ROWS = List.of(
            new Row("broker.id", ConfigType.INT, BrokerConfig::brokerId, "This broker's id (KAAS_BROKER_ID).",
                    "KAAS_BROKER_ID"),
            new Row("broker.rack", ConfigType.STRING, c -> c.rack().orElse(null),
                    "This broker's rack, as Metadata and DescribeCluster report it; rack-aware assignors read it"
                            + " (KAAS_BROKER_RACK).", "KAAS_BROKER_RACK"),
            new Row("node.id", ConfigType.INT, BrokerConfig::brokerId,
                    "This node's id: the broker id, as kaas has no separate controller nodes (KAAS_BROKER_ID).",
                    "KAAS_BROKER_ID"),
            new Row("listeners", ConfigType.STRING, c -> listeners(c, c.bindHost()),
                    "The listeners kaas binds (KAAS_BIND_HOST, KAAS_PORT or KAAS_LISTENERS; port 0 binds an ephemeral"
                            + " port).", "KAAS_BIND_HOST", "KAAS_PORT", "KAAS_LISTENERS"),
            new Row("advertised.listeners", ConfigType.STRING, c -> listeners(c, c.advertisedHost()),
                    "The addresses clients are told to connect to, each on the listener they came in on"
                            + " (KAAS_ADVERTISED_HOST, KAAS_PORT or KAAS_LISTENERS).",
                    "KAAS_ADVERTISED_HOST", "KAAS_BIND_HOST", "KAAS_PORT", "KAAS_LISTENERS"),
            new Row("log.dirs", ConfigType.STRING, BrokerConfigView::logDir,
                    "Where partition logs live: the data directory (KAAS_DATA_DIR) and the other log dirs"
                            + " (KAAS_LOG_DIRS or KAAS_VOLUME_POOL), or " + MemoryLogEngine.LOG_DIR
                            + " with KAAS_STORAGE=memory.",
                    "KAAS_DATA_DIR", "KAAS_LOG_DIRS", "KAAS_VOLUME_POOL", "KAAS_STORAGE"),
            new Row("num.partitions", ConfigType.INT, BrokerConfig::defaultPartitions,
                    "Partitions of a topic created without a count, e.g. by auto-creation (KAAS_DEFAULT_PARTITIONS).",
                    "KAAS_DEFAULT_PARTITIONS"),
            new Row("default.replication.factor", ConfigType.INT, c -> 1,
                    "Copies of each partition: always one, kept on the shared volume, which provides the redundancy.",
                    new String[0]),
            new Row("auto.create.topics.enable", ConfigType.BOOLEAN, BrokerConfig::autoCreateTopics,
                    "Whether a Metadata request for an unknown topic creates it (KAAS_AUTO_CREATE_TOPICS).",
                    "KAAS_AUTO_CREATE_TOPICS"),
            new Row("message.max.bytes", ConfigType.INT, BrokerConfig::messageMaxBytes,
                    "Largest record batch a topic accepts unless its max.message.bytes says otherwise"
                            + " (KAAS_MESSAGE_MAX_BYTES).", "KAAS_MESSAGE_MAX_BYTES"),
            new Row("socket.request.max.bytes", ConfigType.INT, BrokerConfig::maxFrameBytes,
                    "Largest request frame; a larger one closes the connection (KAAS_SOCKET_REQUEST_MAX_BYTES).",
                    "KAAS_SOCKET_REQUEST_MAX_BYTES"),
            new Row("num.network.threads", ConfigType.INT, BrokerConfig::ioThreads,
                    "Network event-loop threads (KAAS_IO_THREADS).", "KAAS_IO_THREADS"),
            new Row("socket.send.buffer.bytes", ConfigType.INT, BrokerConfig::socketSendBufferBytes,
                    "Each connection's SO_SNDBUF; -1 leaves the OS default (KAAS_SOCKET_SEND_BUFFER_BYTES).",
                    "KAAS_SOCKET_SEND_BUFFER_BYTES"),
            new Row("socket.receive.buffer.bytes", ConfigType.INT, BrokerConfig::socketReceiveBufferBytes,
                    "Each connection's SO_RCVBUF; -1 leaves the OS default (KAAS_SOCKET_RECEIVE_BUFFER_BYTES).",
                    "KAAS_SOCKET_RECEIVE_BUFFER_BYTES"),
            new Row("connections.max.idle.ms", ConfigType.LONG, BrokerConfig::connectionsMaxIdleMs,
                    "A connection with nothing read, written or in progress for this long is closed; -1 never closes"
                            + " one (KAAS_CONNECTIONS_MAX_IDLE_MS).", "KAAS_CONNECTIONS_MAX_IDLE_MS"),
            new Row("max.connections", ConfigType.INT, c -> c.connectionLimits().maxConnections(),
                    "The most connections the broker holds; a listener at the limit stops accepting until one closes"
                            + " (KAAS_MAX_CONNECTIONS; per listener: listener.name.<listener>.max.connections).",
                    "KAAS_MAX_CONNECTIONS"),
            new Row("max.connections.per.ip", ConfigType.INT, c -> c.connectionLimits().maxConnectionsPerIp(),
                    "The most connections one IP holds; a further one is closed at once"
                            + " (KAAS_MAX_CONNECTIONS_PER_IP).", "KAAS_MAX_CONNECTIONS_PER_IP"),
            new Row("max.connections.per.ip.overrides", ConfigType.STRING,
                    c -> c.connectionLimits().perIpOverrides().entrySet().stream()
                            .map(e -> e.getKey() + ":" + e.getValue()).collect(Collectors.joining(",")),
                    "Per-host overrides of max.connections.per.ip, host:count,..."
                            + " (KAAS_MAX_CONNECTIONS_PER_IP_OVERRIDES).", "KAAS_MAX_CONNECTIONS_PER_IP_OVERRIDES"),
            new Row("max.connection.creation.rate", ConfigType.INT,
                    c -> c.connectionLimits().maxConnectionCreationRate(),
                    "The most connections the broker accepts per second; over it a listener pauses accepting"
                            + " (KAAS_MAX_CONNECTION_CREATION_RATE; per listener:"
                            + " listener.name.<listener>.max.connection.creation.rate).",
                    "KAAS_MAX_CONNECTION_CREATION_RATE"),
            new Row("log.segment.bytes", ConfigType.INT, c -> c.logDefaults().segmentBytes(),
                    "Default segment.bytes of every topic (KAAS_SEGMENT_BYTES).", "KAAS_SEGMENT_BYTES"),
            new Row("log.roll.ms", ConfigType.LONG, c -> c.logDefaults().segmentMs(),
                    "Default segment.ms of every topic (KAAS_SEGMENT_MS).", "KAAS_SEGMENT_MS"),
            new Row("log.retention.ms", ConfigType.LONG, c -> c.logDefaults().retentionMs(),
                    "Default retention.ms of every topic (KAAS_RETENTION_MS).", "KAAS_RETENTION_MS"),
            new Row("log.retention.bytes", ConfigType.LONG, c -> c.logDefaults().retentionBytes(),
                    "Default retention.bytes of every topic (KAAS_RETENTION_BYTES).", "KAAS_RETENTION_BYTES"),
            new Row("log.flush.interval.messages", ConfigType.LONG, c -> c.logDefaults().flushIntervalMessages(),
                    "Default flush.messages of every topic (KAAS_FLUSH_INTERVAL_MESSAGES); 1 means an acks=all"
                            + " produce is answered after an fsync.", "KAAS_FLUSH_INTERVAL_MESSAGES"),
            new Row("log.retention.check.interval.ms", ConfigType.LONG, BrokerConfig::retentionCheckIntervalMs,
                    "How often the retention sweep runs (KAAS_RETENTION_CHECK_INTERVAL_MS).",
                    "KAAS_RETENTION_CHECK_INTERVAL_MS"),
            new Row("producer.id.expiration.ms", ConfigType.INT, BrokerConfig::producerIdExpirationMs,
                    "How long a partition remembers a producer that has stopped writing to it and has no transaction"
                            + " in progress there (KAAS_PRODUCER_ID_EXPIRATION_MS).", "KAAS_PRODUCER_ID_EXPIRATION_MS"),
            new Row("producer.id.expiration.check.interval.ms", ConfigType.INT,
                    BrokerConfig::producerIdExpirationCheckIntervalMs,
                    "How often partitions look for expired producers (KAAS_PRODUCER_ID_EXPIRATION_CHECK_INTERVAL_MS).",
                    "KAAS_PRODUCER_ID_EXPIRATION_CHECK_INTERVAL_MS"),
            new Row("max.incremental.fetch.session.cache.slots", ConfigType.INT, BrokerConfig::fetchSessionCacheSlots,
                    "The most incremental fetch sessions (KIP-227) the broker keeps; a consumer finding no free slot"
                            + " fetches without one (KAAS_MAX_INCREMENTAL_FETCH_SESSION_CACHE_SLOTS).",
                    "KAAS_MAX_INCREMENTAL_FETCH_SESSION_CACHE_SLOTS"),
            new Row("quota.window.num", ConfigType.INT, c -> c.quotaWindow().samples(),
                    "The number of samples client quotas measure rates over (KAAS_QUOTA_WINDOW_NUM).",
                    "KAAS_QUOTA_WINDOW_NUM"),
            new Row("quota.window.size.seconds", ConfigType.INT, c -> (int) (c.quotaWindow().sampleMs() / 1_000),
                    "The time span of each client quota sample (KAAS_QUOTA_WINDOW_SIZE_SECONDS).",
                    "KAAS_QUOTA_WINDOW_SIZE_SECONDS"),
            new Row("controller.quota.window.num", ConfigType.INT, c -> c.controllerQuotaWindow().samples(),
                    "The number of samples controller mutation quotas measure rates over"
                            + " (KAAS_CONTROLLER_QUOTA_WINDOW_NUM).", "KAAS_CONTROLLER_QUOTA_WINDOW_NUM"),
            new Row("controller.quota.window.size.seconds", ConfigType.INT,
                    c -> (int) (c.controllerQuotaWindow().sampleMs() / 1_000),
                    "The time span of each controller mutation quota sample"
                            + " (KAAS_CONTROLLER_QUOTA_WINDOW_SIZE_SECONDS).", "KAAS_CONTROLLER_QUOTA_WINDOW_SIZE_SECONDS"),
            new Row("group.max.size", ConfigType.INT, c -> c.groups().maxSize(),
                    "The most members a consumer group may have; a JoinGroup beyond it is answered"
                            + " GROUP_MAX_SIZE_REACHED (KAAS_GROUP_MAX_SIZE).", "KAAS_GROUP_MAX_SIZE"),
            new Row("offsets.retention.minutes", ConfigType.INT, c -> (int) (c.groups().offsetsRetentionMs() / 60_000),
                    "How long a group that has become empty keeps its committed offsets; offsets of a stable group's"
                            + " unsubscribed topics, and of offsets-only groups, count from their commit"
                            + " (KAAS_OFFSETS_RETENTION_MS, in milliseconds).", "KAAS_OFFSETS_RETENTION_MS"),
            new Row("offsets.retention.check.interval.ms", ConfigType.LONG,
                    c -> c.groups().offsetsRetentionCheckIntervalMs(),
                    "How often expired offsets are looked for (KAAS_OFFSETS_RETENTION_CHECK_INTERVAL_MS).",
                    "KAAS_OFFSETS_RETENTION_CHECK_INTERVAL_MS"),
            new Row("transaction.max.timeout.ms", ConfigType.INT, c -> c.transactions().maxTimeoutMs(),
                    "The longest transaction.timeout.ms a producer may ask for; InitProducerId refuses longer ones with"
                            + " INVALID_TRANSACTION_TIMEOUT (KAAS_TRANSACTION_MAX_TIMEOUT_MS).",
                    "KAAS_TRANSACTION_MAX_TIMEOUT_MS"),
            new Row("transaction.abort.timed.out.transaction.cleanup.interval.ms", ConfigType.INT,
                    c -> c.transactions().abortTimedOutIntervalMs(),
                    "How often transactions past their timeout are aborted and prepared ones completed"
                            + " (KAAS_TRANSACTION_ABORT_INTERVAL_MS).", "KAAS_TRANSACTION_ABORT_INTERVAL_MS"),
            new Row("transactional.id.expiration.ms", ConfigType.INT, c -> c.transactions().idExpirationMs(),
                    "How long a transactional id may go unused before the coordinator forgets it"
                            + " (KAAS_TRANSACTIONAL_ID_EXPIRATION_MS).", "KAAS_TRANSACTIONAL_ID_EXPIRATION_MS"),
            new Row("transaction.remove.expired.transaction.cleanup.interval.ms", ConfigType.INT,
                    c -> c.transactions().removeExpiredIntervalMs(),
                    "How often unused transactional ids are looked for (KAAS_TRANSACTION_EXPIRY_INTERVAL_MS).",
                    "KAAS_TRANSACTION_EXPIRY_INTERVAL_MS"),
            new Row("transaction.partition.verification.enable", ConfigType.BOOLEAN,
                    c -> c.transactions().partitionVerification(),
                    "Whether a transactional batch that would start a transaction on a partition is first checked with"
                            + " the transaction coordinator (KAAS_TRANSACTION_PARTITION_VERIFICATION).",
                    "KAAS_TRANSACTION_PARTITION_VERIFICATION"),
            new Row("transaction.state.log.num.partitions", ConfigType.INT, c -> TxnSlots.COUNT,
                    "Transaction state slots: always 50 files, __cluster/txn_state/slot-N.json.", new String[0]));

    /** The broker's settings as {@code config} runs them. */
    static BrokerConfigs of(BrokerConfig config) {
        BrokerConfig defaults = BrokerConfig.fromEnvironment(Map.of());
        List<BrokerConfigs.Entry> entries = new ArrayList<>();
        for (Row row : ROWS) {
            boolean set = false;
            for (String variable : row.variables()) {
                set |= config.isSet(variable);
            }
            String value = text(row.value().apply(config));
            String apacheDefault = APACHE_DEFAULTS.get(row.name());
            String defaultValue = apacheDefault != null ? apacheDefault : text(row.value().apply(defaults));
            set |= apacheDefault != null && !apacheDefault.equals(value);
            entries.add(BrokerConfigs.Entry.of(row.name(), value, defaultValue, set, row.type(), row.documentation()));
        }
        return BrokerConfigs.of(entries);
    }

    /** A setting's value as DescribeConfigs reports it; null stays null (a setting with no value). */
    private static String text(Object value) {
        return value == null ? null : String.valueOf(value);
    }

    private static String logDir(BrokerConfig config) {
        if (config.storage() == BrokerConfig.Storage.MEMORY) {
            return MemoryLogEngine.LOG_DIR;
        }
        LogDirectories dirs = LogDirectories.of(config.dataDir(), config.logDirs());
        return dirs.names().stream().map(dirs::path).collect(Collectors.joining(","));
    }

    /**
     * Apache's {@code NAME://host:port} list: the one listener without {@code KAAS_LISTENERS} is
     * PLAINTEXT, as before; declared ones carry their names, upper-cased as Apache writes them.
     */
    private static String listeners(BrokerConfig config, String host) {
        Map<String, String> names = apacheListenerNames(config);
        return config.listeners().stream().map(l -> names.get(l.name()) + "://" + host + ":" + l.port())
                .collect(Collectors.joining(","));
    }

    /**
     * Each listener's name as Apache's configs know it (in {@code listeners}, and in a
     * {@code listener.name.<name>.} prefix in lower case), by its kaas name.
     */
    static Map<String, String> apacheListenerNames(BrokerConfig config) {
        Map<String, String> names = new LinkedHashMap<>();
        if (config.listeners().size() == 1 && config.listeners().get(0).name().equals(ListenerConfig.DEFAULT_NAME)) {
            names.put(ListenerConfig.DEFAULT_NAME, PLAINTEXT);
            return names;
        }
        config.listeners().forEach(l -> names.put(l.name(), l.name().toUpperCase(Locale.ROOT).replace('-', '_')));
        return names;
    }
}
