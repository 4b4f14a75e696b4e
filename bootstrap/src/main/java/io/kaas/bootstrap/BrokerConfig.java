package io.kaas.bootstrap;

import io.kaas.adapter.k8s.ArgoCdAnnotations;
import io.kaas.adapter.wire.WireSettings;
import io.kaas.application.cluster.BrokerSettings;
import io.kaas.application.log.LogConfig;
import io.kaas.application.txn.TransactionSettings;
import io.kaas.bootstrap.logging.LoggingSettings;
import io.kaas.bootstrap.telemetry.TelemetrySettings;
import io.kaas.domain.fetch.FetchSessionCache;
import io.kaas.domain.group.GroupConfig;
import io.kaas.domain.quota.ConnectionLimits;
import io.kaas.domain.quota.QuotaWindow;
import io.kaas.domain.security.KafkaPrincipal;
import io.kaas.domain.security.SslPrincipalMapping;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * The broker's configuration, read once from {@code KAAS_*} environment variables. Every problem
 * is reported at once, naming the variable and what it accepts.
 *
 * @param bindHost          {@code KAAS_BIND_HOST}: address the Kafka listener binds (127.0.0.1)
 * @param port              {@code KAAS_PORT}: the primary (first) listener's port (9092; 0 for an ephemeral one); with
 *                          {@code KAAS_LISTENERS} the first listener's port, which {@code KAAS_PORT} must then equal if set
 * @param listeners         {@code KAAS_LISTENERS}: the client listeners (see {@link ListenerConfig}), with
 *                          {@code KAAS_CONNECTIONS_MAX_REAUTH_MS} (Apache's {@code connections.max.reauth.ms}, 0 = no
 *                          bound) on their SASL sessions; without it one
 *                          plaintext listener without authentication on {@code KAAS_PORT}
 * @param healthPort        {@code KAAS_HEALTH_PORT}: {@code /healthz} and {@code /readyz}, on the bind host (8080; 0 for
 *                          an ephemeral one)
 * @param advertisedHost    {@code KAAS_ADVERTISED_HOST}: host clients are told to connect to (the bind host)
 * @param storage           {@code KAAS_STORAGE}: {@code disk} or {@code memory} (disk)
 * @param dataDir           {@code KAAS_DATA_DIR}: the data directory (./kaas-data), the log dir {@code default}
 * @param logDirs           {@code KAAS_LOG_DIRS} or {@code KAAS_VOLUME_POOL}: the other log dirs by name, in the order given
 *                          ({@link LogDirsSetting}; none by default)
 * @param brokerId          {@code KAAS_BROKER_ID}: this broker's node id (0)
 * @param rack              {@code KAAS_BROKER_RACK}: this broker's rack, e.g. its zone (none)
 * @param clusterId         {@code KAAS_CLUSTER_ID}: fixes the cluster id instead of minting one
 * @param autoCreateTopics  {@code KAAS_AUTO_CREATE_TOPICS}: Metadata creates unknown topics (true)
 * @param defaultPartitions {@code KAAS_DEFAULT_PARTITIONS}: partitions of a topic created without a count (1)
 * @param messageMaxBytes   {@code KAAS_MESSAGE_MAX_BYTES}: largest produced batch (1048588)
 * @param maxFrameBytes     {@code KAAS_SOCKET_REQUEST_MAX_BYTES}: largest request frame (104857600)
 * @param ioThreads         {@code KAAS_IO_THREADS}: network event-loop threads (2 x cores)
 * @param socketSendBufferBytes    {@code KAAS_SOCKET_SEND_BUFFER_BYTES}: each connection's SO_SNDBUF (102400; -1 = OS default)
 * @param tlsSocketSendBufferBytes {@code KAAS_TLS_SOCKET_SEND_BUFFER_BYTES}: SO_SNDBUF of a connection on a TLS listener
 *                          (-1 = OS default, which is the default: {@link WireSettings#DEFAULT_TLS_SEND_BUFFER_BYTES})
 * @param socketReceiveBufferBytes {@code KAAS_SOCKET_RECEIVE_BUFFER_BYTES}: each connection's SO_RCVBUF (102400; -1 = OS default)
 * @param connectionLimits  the broker-wide connection limits at startup, each Apache's config of that name, all
 *                          unlimited by default ({@link Integer#MAX_VALUE}): {@code KAAS_MAX_CONNECTIONS},
 *                          {@code KAAS_MAX_CONNECTIONS_PER_IP}, {@code KAAS_MAX_CONNECTIONS_PER_IP_OVERRIDES}
 *                          ({@code host:count,...}), {@code KAAS_MAX_CONNECTION_CREATION_RATE}; all dynamic
 * @param connectionsMaxIdleMs {@code KAAS_CONNECTIONS_MAX_IDLE_MS}: an idle connection is closed after this long (600000;
 *                          -1 = never)
 * @param logDefaults       storage defaults for every topic: {@code KAAS_FLUSH_INTERVAL_MESSAGES} (1: acks=-1 means
 *                          fsynced), {@code KAAS_SEGMENT_BYTES} (1 GiB), {@code KAAS_SEGMENT_MS} (7 days),
 *                          {@code KAAS_RETENTION_MS} (7 days, -1 forever), {@code KAAS_RETENTION_BYTES} (-1, no limit)
 * @param fsyncMaxLatencyMs {@code KAAS_FSYNC_MAX_LATENCY_MS}: an fsync slower than this stalls its partition (30000)
 * @param logJournal        {@code KAAS_LOG_JOURNAL} (false): appends are made durable through one broker-wide
 *                          write-ahead journal ({@code __cluster/journal/}), one fsync for every partition, instead
 *                          of an fsync per partition; standalone only (a takeover does not replay another broker's
 *                          journal yet)
 * @param retentionCheckIntervalMs {@code KAAS_RETENTION_CHECK_INTERVAL_MS}: how often retention runs (300000)
 * @param logCleaner        the compaction of {@code cleanup.policy=compact} topics ({@link LogCleanerSettings}:
 *                          {@code KAAS_LOG_CLEANER_IO_MAX_BYTES_PER_SECOND}, {@code KAAS_LOG_CLEANER_BACKOFF_MS},
 *                          {@code KAAS_LOG_CLEANER_DEDUPE_BUFFER_SIZE})
 * @param producerIdExpirationMs {@code KAAS_PRODUCER_ID_EXPIRATION_MS}: a producer idle this long is forgotten by
 *                          each partition (86400000, Apache's {@code producer.id.expiration.ms})
 * @param producerIdExpirationCheckIntervalMs {@code KAAS_PRODUCER_ID_EXPIRATION_CHECK_INTERVAL_MS}: how often idle
 *                          producers are looked for (600000)
 * @param maxPartitionsPerTopic {@code KAAS_MAX_PARTITIONS_PER_TOPIC}: most partitions a topic may have (10000)
 * @param fetchSessionCacheSlots {@code KAAS_MAX_INCREMENTAL_FETCH_SESSION_CACHE_SLOTS}: most fetch sessions
 *                          (KIP-227) kept at once, Apache's {@code max.incremental.fetch.session.cache.slots} (1000;
 *                          0: none, every fetch sessionless)
 * @param quotaWindow       how client quotas measure rates: {@code KAAS_QUOTA_WINDOW_NUM} samples (11) of
 *                          {@code KAAS_QUOTA_WINDOW_SIZE_SECONDS} each (1), Apache's {@code quota.window.num} and
 *                          {@code quota.window.size.seconds}
 * @param controllerQuotaWindow how {@code controller_mutation_rate} quotas measure: {@code
 *                          KAAS_CONTROLLER_QUOTA_WINDOW_NUM} samples (11) of {@code
 *                          KAAS_CONTROLLER_QUOTA_WINDOW_SIZE_SECONDS} each (1), Apache's {@code controller.quota.window.*}
 * @param cluster           cluster mode's settings when {@code MY_POD_NAME} is set (see {@link ClusterSettings}); there the
 *                          broker id defaults to the pod's ordinal and the advertised host to the pod's DNS name
 * @param explicitlySet     the variables the environment set (the rest are defaults): DescribeConfigs reports
 *                          their broker settings as STATIC_BROKER_CONFIG
 * @param groups            the group coordinator, with Apache's defaults: {@code KAAS_GROUP_MIN_SESSION_TIMEOUT_MS}
 *                          (6000), {@code KAAS_GROUP_MAX_SESSION_TIMEOUT_MS} (1800000),
 *                          {@code KAAS_GROUP_INITIAL_REBALANCE_DELAY_MS} (3000), {@code KAAS_OFFSET_METADATA_MAX_BYTES} (4096),
 *                          {@code KAAS_GROUP_MAX_SIZE} (2147483647),
 *                          {@code KAAS_OFFSETS_RETENTION_MS} (604800000), {@code KAAS_OFFSETS_RETENTION_CHECK_INTERVAL_MS}
 *                          (600000)
 * @param transactions      the transaction coordinator, with Apache's defaults: {@code KAAS_TRANSACTION_MAX_TIMEOUT_MS}
 *                          (900000), {@code KAAS_TRANSACTION_ABORT_INTERVAL_MS} (10000: the timeout reaper and the
 *                          marker reconcile), {@code KAAS_TRANSACTIONAL_ID_EXPIRATION_MS} (604800000),
 *                          {@code KAAS_TRANSACTION_EXPIRY_INTERVAL_MS} (3600000),
 *                          {@code KAAS_TRANSACTION_PARTITION_VERIFICATION} (true)
 * @param authorization     {@code KAAS_AUTHORIZATION_TYPE} (unset: everything allowed; {@code simple}: the ACLs of
 *                          {@code __cluster/acls.json}), {@code KAAS_SUPER_USERS} (principals allowed everything,
 *                          {@code User:a;User:b} as Apache's {@code super.users}, or comma-separated) and
 *                          {@code KAAS_SECURITY_RELOAD_INTERVAL_MS} (2000: how often the security files are re-read)
 * @param testHooks         {@code KAAS_TEST_HOOKS} (false): lets tests wedge the broker on purpose, through
 *                          {@code POST /debug/wedge?ms=N} on the health port; never set it in production
 * @param telemetry         the OTLP push of the metrics ({@link TelemetrySettings}: the standard {@code OTEL_*}
 *                          variables and {@code KAAS_METRIC_EXPORT_INTERVAL}); {@code /metrics} is always served
 * @param logging           {@code KAAS_LOG_LEVEL} and {@code KAAS_LOG_FORMAT} ({@link LoggingSettings})
 */
public record BrokerConfig(String bindHost, int port, List<ListenerConfig> listeners, int healthPort, String advertisedHost, Storage storage, Path dataDir,
                           Map<String, Path> logDirs, int brokerId, Optional<String> rack, Optional<String> clusterId, boolean autoCreateTopics,
                           int defaultPartitions,
                           int messageMaxBytes, int maxFrameBytes, int ioThreads, int socketSendBufferBytes,
                           int tlsSocketSendBufferBytes, int socketReceiveBufferBytes, long connectionsMaxIdleMs, ConnectionLimits connectionLimits,
                           LogConfig logDefaults,
                           long fsyncMaxLatencyMs, boolean logJournal, long retentionCheckIntervalMs,
                           LogCleanerSettings logCleaner,
                           int producerIdExpirationMs,
                           int producerIdExpirationCheckIntervalMs, int maxPartitionsPerTopic,
                           int fetchSessionCacheSlots, QuotaWindow quotaWindow, QuotaWindow controllerQuotaWindow, GroupConfig groups, TransactionSettings transactions, Optional<ClusterSettings> cluster,
                           AuthorizationSettings authorization, boolean testHooks, TelemetrySettings telemetry,
                           LoggingSettings logging, Set<String> explicitlySet) {

    public BrokerConfig {
        listeners = List.copyOf(listeners);
        logDirs = Collections.unmodifiableMap(new LinkedHashMap<>(logDirs));
        explicitlySet = Set.copyOf(explicitlySet);
    }

    /** Where partition logs and metadata live. */
    public enum Storage { DISK, MEMORY }

    public static BrokerConfig fromEnvironment(Map<String, String> env) {
        Reader r = new Reader(env);
        String bindHost = r.string("KAAS_BIND_HOST", "127.0.0.1");
        Optional<ClusterSettings> cluster = clusterSettings(r);
        int port = r.integer("KAAS_PORT", 9092, 0, 65535);
        List<ListenerConfig> listeners = listeners(env, r, port);
        int brokerId = cluster.map(c -> ClusterSettings.ordinalOf(c.podName())).orElseGet(
                () -> r.integer("KAAS_BROKER_ID", 0, 0, Integer.MAX_VALUE));
        Path dataDir = r.parse("KAAS_DATA_DIR", Path.of("kaas-data"), "a directory path", Path::of);
        BrokerConfig config = new BrokerConfig(
                bindHost,
                listeners.get(0).port(),
                listeners,
                r.integer("KAAS_HEALTH_PORT", 8080, 0, 65535),
                r.string("KAAS_ADVERTISED_HOST", cluster.map(ClusterSettings::podHost).orElse(bindHost)),
                r.parse("KAAS_STORAGE", Storage.DISK, "disk or memory",
                        v -> Storage.valueOf(v.toUpperCase(Locale.ROOT))),
                dataDir,
                LogDirsSetting.fromEnvironment(env, dataDir, r::problem),
                brokerId,
                Optional.ofNullable(env.get("KAAS_BROKER_RACK")).filter(s -> !s.isBlank()),
                Optional.ofNullable(env.get("KAAS_CLUSTER_ID")).filter(s -> !s.isBlank()),
                r.bool("KAAS_AUTO_CREATE_TOPICS", true),
                r.integer("KAAS_DEFAULT_PARTITIONS", 1, 1, 100_000),
                r.integer("KAAS_MESSAGE_MAX_BYTES", BrokerSettings.DEFAULT_MESSAGE_MAX_BYTES, 1, Integer.MAX_VALUE),
                r.integer("KAAS_SOCKET_REQUEST_MAX_BYTES", WireSettings.DEFAULT_MAX_FRAME_BYTES, 1, Integer.MAX_VALUE),
                r.integer("KAAS_IO_THREADS", 2 * Runtime.getRuntime().availableProcessors(), 1, 1024),
                r.integer("KAAS_SOCKET_SEND_BUFFER_BYTES", WireSettings.DEFAULT_SOCKET_BUFFER_BYTES, -1, Integer.MAX_VALUE),
                r.integer("KAAS_TLS_SOCKET_SEND_BUFFER_BYTES", WireSettings.DEFAULT_TLS_SEND_BUFFER_BYTES, -1,
                        Integer.MAX_VALUE),
                r.integer("KAAS_SOCKET_RECEIVE_BUFFER_BYTES", WireSettings.DEFAULT_SOCKET_BUFFER_BYTES, -1,
                        Integer.MAX_VALUE),
                r.longValue("KAAS_CONNECTIONS_MAX_IDLE_MS", WireSettings.DEFAULT_CONNECTIONS_MAX_IDLE_MS, -1,
                        Long.MAX_VALUE),
                connectionLimits(r),
                new LogConfig(
                        r.integer("KAAS_SEGMENT_BYTES", LogConfig.DEFAULTS.segmentBytes(), 14, Integer.MAX_VALUE),
                        r.longValue("KAAS_SEGMENT_MS", LogConfig.DEFAULTS.segmentMs(), 1, Long.MAX_VALUE),
                        r.longValue("KAAS_RETENTION_MS", LogConfig.DEFAULTS.retentionMs(), -1, Long.MAX_VALUE),
                        r.longValue("KAAS_RETENTION_BYTES", LogConfig.DEFAULTS.retentionBytes(), -1, Long.MAX_VALUE),
                        r.longValue("KAAS_FLUSH_INTERVAL_MESSAGES", LogConfig.DEFAULTS.flushIntervalMessages(), 1,
                                Long.MAX_VALUE),
                        LogConfig.DEFAULTS.flushIntervalMs(),
                        LogConfig.DEFAULTS.indexIntervalBytes(),
                        LogConfig.DEFAULTS.deleteRetention(),
                        LogConfig.DEFAULTS.fileDeleteDelayMs()),
                r.longValue("KAAS_FSYNC_MAX_LATENCY_MS", 30_000, 1, Long.MAX_VALUE),
                r.bool("KAAS_LOG_JOURNAL", false),
                r.longValue("KAAS_RETENTION_CHECK_INTERVAL_MS", 300_000, 1, Long.MAX_VALUE),
                new LogCleanerSettings(
                        r.longValue("KAAS_LOG_CLEANER_IO_MAX_BYTES_PER_SECOND",
                                LogCleanerSettings.DEFAULTS.ioMaxBytesPerSecond(), 0, Long.MAX_VALUE),
                        r.longValue("KAAS_LOG_CLEANER_BACKOFF_MS", LogCleanerSettings.DEFAULTS.backoffMs(), 1,
                                Long.MAX_VALUE),
                        r.longValue("KAAS_LOG_CLEANER_DEDUPE_BUFFER_SIZE",
                                LogCleanerSettings.DEFAULTS.dedupeBufferSize(), 1024, Long.MAX_VALUE)),
                r.integer("KAAS_PRODUCER_ID_EXPIRATION_MS", 86_400_000, 1, Integer.MAX_VALUE),
                r.integer("KAAS_PRODUCER_ID_EXPIRATION_CHECK_INTERVAL_MS", 600_000, 1, Integer.MAX_VALUE),
                r.integer("KAAS_MAX_PARTITIONS_PER_TOPIC", BrokerSettings.DEFAULT_MAX_PARTITIONS_PER_TOPIC, 1,
                        Integer.MAX_VALUE),
                r.integer("KAAS_MAX_INCREMENTAL_FETCH_SESSION_CACHE_SLOTS", FetchSessionCache.DEFAULT_SLOTS, 0,
                        Integer.MAX_VALUE),
                quotaWindow(r, "KAAS_QUOTA_WINDOW"),
                quotaWindow(r, "KAAS_CONTROLLER_QUOTA_WINDOW"),
                new GroupConfig(
                        r.integer("KAAS_GROUP_MIN_SESSION_TIMEOUT_MS", GroupConfig.DEFAULTS.minSessionTimeoutMs(), 0,
                                Integer.MAX_VALUE),
                        r.integer("KAAS_GROUP_MAX_SESSION_TIMEOUT_MS", GroupConfig.DEFAULTS.maxSessionTimeoutMs(), 0,
                                Integer.MAX_VALUE),
                        r.integer("KAAS_GROUP_INITIAL_REBALANCE_DELAY_MS", GroupConfig.DEFAULTS.initialRebalanceDelayMs(),
                                0, Integer.MAX_VALUE),
                        r.integer("KAAS_OFFSET_METADATA_MAX_BYTES", GroupConfig.DEFAULTS.offsetMetadataMaxBytes(), 0,
                                Integer.MAX_VALUE),
                        r.integer("KAAS_GROUP_MAX_SIZE", GroupConfig.DEFAULTS.maxSize(), 1, Integer.MAX_VALUE),
                        r.longValue("KAAS_OFFSETS_RETENTION_MS", GroupConfig.DEFAULTS.offsetsRetentionMs(), 1,
                                Long.MAX_VALUE),
                        r.longValue("KAAS_OFFSETS_RETENTION_CHECK_INTERVAL_MS",
                                GroupConfig.DEFAULTS.offsetsRetentionCheckIntervalMs(), 1, Long.MAX_VALUE)),
                new TransactionSettings(
                        r.longValue("KAAS_TRANSACTION_MAX_TIMEOUT_MS", TransactionSettings.DEFAULTS.maxTimeoutMs(), 1,
                                Integer.MAX_VALUE),
                        r.longValue("KAAS_TRANSACTION_ABORT_INTERVAL_MS",
                                TransactionSettings.DEFAULTS.abortTimedOutIntervalMs(), 1, Long.MAX_VALUE),
                        r.longValue("KAAS_TRANSACTIONAL_ID_EXPIRATION_MS", TransactionSettings.DEFAULTS.idExpirationMs(), 1,
                                Long.MAX_VALUE),
                        r.longValue("KAAS_TRANSACTION_EXPIRY_INTERVAL_MS",
                                TransactionSettings.DEFAULTS.removeExpiredIntervalMs(), 1, Long.MAX_VALUE),
                        r.bool("KAAS_TRANSACTION_PARTITION_VERIFICATION",
                                TransactionSettings.DEFAULTS.partitionVerification())),
                cluster,
                authorization(r),
                r.bool("KAAS_TEST_HOOKS", false),
                telemetry(env, r, brokerId),
                logging(env, r),
                r.setVariables());
        if (cluster.isPresent() && (config.port() == 0 || cluster.get().heartbeatPort() == 0)) {
            r.problem("KAAS_PORT and KAAS_HEARTBEAT_PORT must be fixed ports in a cluster: the other brokers and the clients "
                    + "find them in the headless Service's endpoints");
        }
        if (cluster.isPresent()) {
            config.listeners().stream().skip(1).filter(l -> l.port() == 0).forEach(l -> r.problem("listener " + l.name()
                    + ": port 0 in a cluster; every broker must serve a listener on the same fixed port"));
        }
        if (config.healthPort() != 0 && config.listeners().stream().anyMatch(l -> l.port() == config.healthPort())) {
            r.problem("KAAS_HEALTH_PORT=" + config.healthPort() + " is also a listener's port");
        }
        if (cluster.isPresent() && config.storage() != Storage.DISK) {
            r.problem("KAAS_STORAGE=memory: a cluster's brokers share one volume; use disk storage with MY_POD_NAME set");
        }
        if (!config.logDirs().isEmpty() && config.storage() != Storage.DISK) {
            r.problem("log dirs (KAAS_LOG_DIRS, KAAS_VOLUME_POOL) need disk storage: KAAS_STORAGE=memory keeps every"
                    + " log in the heap");
        }
        if (config.logJournal() && config.storage() != Storage.DISK) {
            r.problem("KAAS_LOG_JOURNAL needs disk storage: KAAS_STORAGE=memory never fsyncs");
        }
        if (config.logJournal() && cluster.isPresent()) {
            r.problem("KAAS_LOG_JOURNAL is not served in a cluster yet: a broker taking a partition over would not"
                    + " replay the journal of the broker it replaces");
        }
        if (cluster.isPresent() && env.containsKey("KAAS_BROKER_ID") && !env.get("KAAS_BROKER_ID").isBlank()
                && !env.get("KAAS_BROKER_ID").trim().equals(Integer.toString(config.brokerId()))) {
            r.problem("KAAS_BROKER_ID=" + env.get("KAAS_BROKER_ID") + ": in a cluster the broker id is the pod's ordinal ("
                    + config.brokerId() + " for " + cluster.get().podName() + ")");
        }
        if (config.groups().minSessionTimeoutMs() > config.groups().maxSessionTimeoutMs()) {
            r.problem("KAAS_GROUP_MIN_SESSION_TIMEOUT_MS must not exceed KAAS_GROUP_MAX_SESSION_TIMEOUT_MS");
        }
        r.failIfProblems();
        return config;
    }

    /** Apache's broker-wide connection limits, with its startup checks. */
    private static ConnectionLimits connectionLimits(Reader r) {
        int perIp = r.integer("KAAS_MAX_CONNECTIONS_PER_IP", ConnectionLimits.UNLIMITED, 0, Integer.MAX_VALUE);
        String overrides = r.string("KAAS_MAX_CONNECTIONS_PER_IP_OVERRIDES", "");
        Map<String, Integer> parsed = Map.of();
        try {
            parsed = ConnectionLimits.parseOverrides(overrides);
        } catch (RuntimeException e) {
            r.problem("KAAS_MAX_CONNECTIONS_PER_IP_OVERRIDES=" + overrides + ": expected host:count,... ("
                    + e.getMessage() + ")");
        }
        if (perIp == 0 && parsed.isEmpty()) {
            r.problem("KAAS_MAX_CONNECTIONS_PER_IP can be set to zero only if KAAS_MAX_CONNECTIONS_PER_IP_OVERRIDES is"
                    + " set");
        }
        return new ConnectionLimits(r.integer("KAAS_MAX_CONNECTIONS", ConnectionLimits.UNLIMITED, 0, Integer.MAX_VALUE),
                perIp, parsed, r.integer("KAAS_MAX_CONNECTION_CREATION_RATE", ConnectionLimits.UNLIMITED, 0,
                        Integer.MAX_VALUE), Map.of(), Map.of());
    }

    /** {@code <prefix>_NUM} samples of {@code <prefix>_SIZE_SECONDS} each, Apache's defaults (11 of 1 s). */
    private static QuotaWindow quotaWindow(Reader r, String prefix) {
        return new QuotaWindow(r.integer(prefix + "_NUM", QuotaWindow.DEFAULT.samples(), 1, Integer.MAX_VALUE),
                1_000L * r.integer(prefix + "_SIZE_SECONDS", (int) (QuotaWindow.DEFAULT.sampleMs() / 1_000), 1,
                        Integer.MAX_VALUE));
    }

    /** Cluster mode when {@code MY_POD_NAME} is set: the pod's identity and the cluster's plumbing. */
    private static Optional<ClusterSettings> clusterSettings(Reader r) {
        String pod = r.string("MY_POD_NAME", "");
        if (pod.isEmpty()) {
            return Optional.empty();
        }
        if (ClusterSettings.ordinalOf(pod) < 0) {
            r.problem("MY_POD_NAME=" + pod + ": expected a StatefulSet pod name ending in -<ordinal>, e.g. kaas-0");
        }
        return Optional.of(new ClusterSettings(pod,
                r.string("KAAS_NAMESPACE", r.string("MY_POD_NAMESPACE", "default")),
                r.string("KAAS_HEADLESS_SERVICE", "kaas-brokers"),
                r.integer("KAAS_HEARTBEAT_PORT", 9094, 0, 65535),
                r.string("KAAS_LEASE_NAME", "kaas-controller"),
                r.integer("KAAS_LEASE_DURATION_SECONDS", 10, 2, 3600),
                r.longValue("KAAS_HEARTBEAT_TIMEOUT_MS", 3_000, 500, 600_000),
                argoCd(r),
                r.bool("KAAS_PARTITIONS_READY_GATE", false)));
    }

    /**
     * ArgoCD coexistence on the KafkaTopics this broker creates (the chart's {@code admin.argocd}): on when
     * {@code KAAS_ARGOCD_APPLICATION} names the Application; either options variable set empty leaves its annotation out.
     */
    private static Optional<ArgoCdAnnotations> argoCd(Reader r) {
        String application = r.string("KAAS_ARGOCD_APPLICATION", "");
        if (application.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new ArgoCdAnnotations(application,
                r.stringOrEmpty("KAAS_ARGOCD_COMPARE_OPTIONS", ArgoCdAnnotations.DEFAULT_COMPARE_OPTIONS),
                r.stringOrEmpty("KAAS_ARGOCD_SYNC_OPTIONS", ArgoCdAnnotations.DEFAULT_SYNC_OPTIONS)));
    }

    private static TelemetrySettings telemetry(Map<String, String> env, Reader r, int brokerId) {
        try {
            return TelemetrySettings.fromEnvironment(env, brokerId);
        } catch (IllegalArgumentException e) {
            r.problem(e.getMessage());
            return TelemetrySettings.fromEnvironment(Map.of(), brokerId);
        }
    }

    private static LoggingSettings logging(Map<String, String> env, Reader r) {
        try {
            return LoggingSettings.fromEnvironment(env);
        } catch (IllegalArgumentException e) {
            r.problem(e.getMessage());
            return LoggingSettings.fromEnvironment(Map.of());
        }
    }

    private static AuthorizationSettings authorization(Reader r) {
        boolean simple = r.parse("KAAS_AUTHORIZATION_TYPE", false, "simple (or unset for none)", v -> {
            if (!v.equalsIgnoreCase("simple")) {
                throw new IllegalArgumentException(v);
            }
            return true;
        });
        Set<KafkaPrincipal> superUsers = r.parse("KAAS_SUPER_USERS", Set.of(),
                "principals as Type:name, separated by ';' (Apache's super.users) or ','",
                AuthorizationSettings::parseSuperUsers);
        return new AuthorizationSettings(simple, superUsers,
                r.longValue("KAAS_SECURITY_RELOAD_INTERVAL_MS", AuthorizationSettings.DEFAULT_RELOAD_INTERVAL_MS, 1,
                        Long.MAX_VALUE),
                r.parse("KAAS_SSL_PRINCIPAL_MAPPING_RULES", SslPrincipalMapping.DEFAULT,
                        "Apache's ssl.principal.mapping.rules (RULE:pattern/replacement/[LU], ..., DEFAULT)",
                        SslPrincipalMapping::parse));
    }

    /** Whether the environment set {@code variable} (to something not blank). */
    public boolean isSet(String variable) {
        return explicitlySet.contains(variable);
    }

    /**
     * {@code KAAS_LISTENERS} when set (then {@code KAAS_PORT}, if also set, must be the first
     * listener's port, as the chart renders them), else one plaintext listener on {@code KAAS_PORT}.
     */
    private static List<ListenerConfig> listeners(Map<String, String> env, Reader r, int port) {
        String json = env.get("KAAS_LISTENERS");
        // read (and checked) even without KAAS_LISTENERS, whose default listener has no SASL sessions to bound
        long connectionsMaxReauthMs = r.longValue("KAAS_CONNECTIONS_MAX_REAUTH_MS", 0, 0, Long.MAX_VALUE);
        if (json == null || json.isBlank()) {
            return List.of(ListenerConfig.plaintext(port));
        }
        List<ListenerConfig> listeners = ListenerConfig.parse(json, connectionsMaxReauthMs, r::problem);
        if (listeners.isEmpty()) {
            return List.of(ListenerConfig.plaintext(port));
        }
        String portVariable = env.get("KAAS_PORT");
        if (portVariable != null && !portVariable.isBlank() && port != listeners.get(0).port()) {
            r.problem("KAAS_PORT=" + portVariable.trim() + " differs from the port of the first listener in KAAS_LISTENERS ("
                    + listeners.get(0).name() + ", " + listeners.get(0).port() + "); the first listener is the primary one");
        }
        return listeners;
    }

    /** Parses variables, collecting every problem instead of stopping at the first. */
    private static final class Reader {
        private final Map<String, String> env;
        private final List<String> problems = new ArrayList<>();

        Reader(Map<String, String> env) {
            this.env = env;
        }

        /** The KAAS_* variables present and not blank. */
        Set<String> setVariables() {
            Set<String> set = new TreeSet<>();
            env.forEach((name, value) -> {
                if (name.startsWith("KAAS_") && value != null && !value.isBlank()) {
                    set.add(name);
                }
            });
            return set;
        }

        String string(String name, String fallback) {
            String value = env.get(name);
            return value == null || value.isBlank() ? fallback : value.trim();
        }

        /** Like {@link #string}, but a variable set empty is empty, not the fallback. */
        String stringOrEmpty(String name, String fallback) {
            String value = env.get(name);
            return value == null ? fallback : value.trim();
        }

        int integer(String name, int fallback, int min, int max) {
            return (int) longValue(name, fallback, min, max);
        }

        long longValue(String name, long fallback, long min, long max) {
            String expected = "an integer from " + min + " to " + max;
            Long value = parse(name, fallback, expected, Long::parseLong);
            if (value < min || value > max) {
                problems.add(name + "=" + env.get(name) + ": expected " + expected);
                return fallback;
            }
            return value;
        }

        boolean bool(String name, boolean fallback) {
            return parse(name, fallback, "true or false", v -> switch (v.toLowerCase(Locale.ROOT)) {
                case "true" -> true;
                case "false" -> false;
                default -> throw new IllegalArgumentException(v);
            });
        }

        <T> T parse(String name, T fallback, String expected, Function<String, T> parser) {
            String value = env.get(name);
            if (value == null || value.isBlank()) {
                return fallback;
            }
            try {
                return parser.apply(value.trim());
            } catch (RuntimeException e) {
                problems.add(name + "=" + value + ": expected " + expected);
                return fallback;
            }
        }

        void problem(String message) {
            problems.add(message);
        }

        void failIfProblems() {
            if (!problems.isEmpty()) {
                throw new IllegalArgumentException("invalid configuration:\n  " + String.join("\n  ", problems));
            }
        }
    }
}
