package io.kaas.bootstrap;

import io.kaas.adapter.fs.ClusterIdFile;
import io.kaas.adapter.fs.DataDirectoryLock;
import io.kaas.adapter.fs.DataLayout;
import io.kaas.adapter.fs.JacksonCodec;
import io.kaas.adapter.fs.JsonAclStore;
import io.kaas.adapter.fs.JsonClientQuotaStore;
import io.kaas.adapter.fs.JsonCredentialStore;
import io.kaas.adapter.fs.JsonDynamicBrokerConfigStore;
import io.kaas.adapter.fs.JsonFiles;
import io.kaas.adapter.fs.JsonMarkerQueue;
import io.kaas.adapter.fs.JsonOffsetStore;
import io.kaas.adapter.fs.JsonProducerFenceLog;
import io.kaas.adapter.fs.JsonProducerIdBlockStore;
import io.kaas.adapter.fs.JsonTopicStore;
import io.kaas.adapter.fs.JsonTransactionStateStore;
import io.kaas.adapter.fs.MemoryFilesystem;
import io.kaas.adapter.fs.NioFilesystem;
import io.kaas.adapter.wire.AccessControl;
import io.kaas.adapter.wire.KafkaApis;
import io.kaas.adapter.wire.KafkaServer;
import io.kaas.adapter.wire.UseCases;
import io.kaas.adapter.wire.WireListener;
import io.kaas.adapter.wire.WireSettings;
import io.kaas.adapter.wire.codec.KafkaBatchRecordSearch;
import io.kaas.adapter.wire.codec.KafkaCompactionRecords;
import io.kaas.adapter.wire.codec.KafkaRecordKeys;
import io.kaas.adapter.wire.dispatch.ConnectionLimits;
import io.kaas.application.authentication.CredentialCache;
import io.kaas.application.authentication.OAuthBearerAuthenticator;
import io.kaas.application.authentication.SigningKeyCache;
import io.kaas.application.port.in.SaslAuthenticationUseCase;
import io.kaas.domain.security.oauth.JsonObjectReader;
import io.kaas.domain.security.oauth.JwtValidator;
import java.util.function.Function;
import io.kaas.application.authentication.SaslAuthenticator;
import io.kaas.application.authentication.StoredUserWriter;
import io.kaas.application.authentication.UserScramCredentialService;
import io.kaas.application.authorization.AclAdminService;
import io.kaas.application.authorization.AclAuthorizer;
import io.kaas.application.authorization.StoredAclWriter;
import io.kaas.application.cluster.BrokerSettings;
import io.kaas.application.cluster.ListenerCluster;
import io.kaas.application.cluster.MetadataService;
import io.kaas.application.cluster.PartitionLeadershipService;
import io.kaas.application.cluster.StandaloneCluster;
import io.kaas.application.cluster.WriteFence;
import io.kaas.application.fetch.FetchPurgatory;
import io.kaas.application.fetch.FetchService;
import io.kaas.application.fetch.FetchSessions;
import io.kaas.application.fetch.ListOffsetsService;
import io.kaas.application.group.GroupCoordinatorService;
import io.kaas.application.log.DiskLogEngine;
import io.kaas.application.log.LogDirectories;
import io.kaas.application.log.LogCleaner;
import io.kaas.application.log.LogEngine;
import io.kaas.application.log.MemoryLogEngine;
import io.kaas.application.log.PartitionLog;
import io.kaas.application.metrics.BrokerMetrics;
import io.kaas.application.metrics.ConsumerLag;
import io.kaas.application.port.in.ClusterUseCase;
import io.kaas.application.port.in.TopicAdminUseCase;
import io.kaas.application.port.in.Tracer;
import io.kaas.application.port.out.AclStore;
import io.kaas.application.port.out.AclWriter;
import io.kaas.application.port.out.Clock;
import io.kaas.application.port.out.Filesystem;
import io.kaas.application.port.out.ProducerIdBlockStore;
import io.kaas.application.port.out.TopicStore;
import io.kaas.application.port.out.TransactionVerifier;
import io.kaas.application.port.out.ClientQuotaWriter;
import io.kaas.application.port.out.UserWriter;
import io.kaas.application.produce.ProduceService;
import io.kaas.application.producer.ProducerIdService;
import io.kaas.application.quota.ClientQuotaEnforcer;
import io.kaas.application.quota.ClientQuotaService;
import io.kaas.application.quota.ConfiguredQuotas;
import io.kaas.application.quota.ConnectionQuotas;
import io.kaas.application.quota.StoredClientQuotaWriter;
import io.kaas.application.security.ReloadedSnapshot;
import io.kaas.application.topic.BrokerConfigService;
import io.kaas.application.topic.ClusterTopicAdmin;
import io.kaas.application.topic.ConfigService;
import io.kaas.application.topic.DeleteRecordsService;
import io.kaas.application.topic.LogDirsService;
import io.kaas.application.topic.PartitionSweep;
import io.kaas.application.topic.StandaloneTopicAdmin;
import io.kaas.application.topic.TopicConfigWriter;
import io.kaas.application.topic.TopicService;
import io.kaas.application.txn.TransactionServices;
import io.kaas.application.txn.VerifiedHere;
import io.kaas.bootstrap.cluster.ClusterRuntime;
import io.kaas.bootstrap.health.HealthReport;
import io.kaas.bootstrap.health.HealthServer;
import io.kaas.bootstrap.logging.KaasLogging;
import io.kaas.bootstrap.telemetry.BrokerTelemetry;
import io.kaas.bootstrap.telemetry.BrokerTracing;
import io.kaas.domain.config.BrokerConfigs;
import io.kaas.domain.fetch.FetchSessionCache;
import io.kaas.domain.quota.StoredClientQuotas;
import io.kaas.domain.security.AclBinding;
import io.kaas.domain.security.AclRules;
import io.kaas.domain.topic.Topic;
import io.kaas.domain.topic.TopicIds;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A standalone broker wired from its configuration: the composition root, where adapters meet
 * the use cases. {@link KaasMain} runs one; tests start them in-process.
 */
public final class KaasBroker implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(KaasBroker.class);
    /** How long a stopping cluster broker waits for the controller to move its partitions away. */
    private static final long DRAIN_TIMEOUT_MS = 30_000;
    /** How soon a user written to credentials.json (by {@code ./kaas user add}, the operator) can log in. */
    private static final long CREDENTIALS_RELOAD_INTERVAL_MS = 1_000;
    /** Why a cluster refuses quotas for anything but a named user: only KafkaUser resources hold quotas there. */
    private static final String CLUSTER_QUOTAS_REFUSAL = "in a cluster kaas keeps quotas on KafkaUser resources, "
            + "which hold a named user's only: client-id, <default> and (user, client-id) entities have no resource "
            + "to live on";
    /** Why a cluster refuses IP quotas: no resource holds them, and brokers enforce only what a resource holds. */
    private static final String CLUSTER_IP_QUOTAS_REFUSAL = "in a cluster kaas keeps quotas on KafkaUser resources "
            + "only: connection_creation_rate for an IP entity has no resource to live on (set it per broker in "
            + "standalone mode only)";

    private final BrokerConfig config;
    private final IoExecutor io;
    /** Background work first, then the logs it writes to, then the threads that run it all. */
    private final List<Runnable> stopSequence;
    private final KafkaServer server;
    private final HealthServer health;
    private final Optional<ClusterRuntime> clusterRuntime;
    private final Optional<DataDirectoryLock> dataDirLock;
    private final FetchSessions fetchSessions;
    private final Optional<LogCleaner> logCleaner;

    private KaasBroker(BrokerConfig config, IoExecutor io, List<Runnable> stopSequence, KafkaServer server,
                       HealthServer health, Optional<ClusterRuntime> clusterRuntime, Optional<DataDirectoryLock> dataDirLock,
                       FetchSessions fetchSessions, Optional<LogCleaner> logCleaner) {
        this.fetchSessions = fetchSessions;
        this.logCleaner = logCleaner;
        this.config = config;
        this.io = io;
        this.stopSequence = stopSequence;
        this.server = server;
        this.health = health;
        this.clusterRuntime = clusterRuntime;
        this.dataDirLock = dataDirLock;
    }

    /**
     * Starts a broker; with disk storage it first locks the data directory, so a second broker on the
     * same directory fails here, before touching a file.
     */
    public static KaasBroker start(BrokerConfig config) throws InterruptedException {
        return start(config, volumeFor(config));
    }

    /**
     * The log dirs, each created if missing: a member that cannot be is a startup failure naming it. In a cluster a
     * missing member is one: the operator places partitions on it, and one created on the pod's own disk (not mounted)
     * would serve them empty.
     */
    private static LogDirectories logDirectories(BrokerConfig config, Filesystem fs) {
        LogDirectories dirs = LogDirectories.of(config.dataDir(), config.logDirs());
        for (String name : dirs.names()) {
            try {
                if (config.cluster().isPresent() && !name.equals(LogDirectories.DEFAULT)
                        && !fs.isDirectory(dirs.root(name))) {
                    throw new IllegalStateException("volume pool member '" + name + "' is not mounted: "
                            + dirs.path(name) + " is not a directory");
                }
                fs.createDirectories(dirs.root(name));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot create log dir '" + name + "' at " + dirs.path(name) + ": "
                        + e.getMessage(), e);
            }
        }
        return dirs;
    }

    /**
     * What this broker claims on the volume: the whole data directory standalone; in a cluster, where
     * every broker shares it, a directory of its own, so two processes with one pod name refuse to run.
     */
    private static Path lockedDirectory(BrokerConfig config) {
        return config.cluster().map(c -> config.dataDir().resolve(DataLayout.CLUSTER_DIR).resolve("brokers")
                .resolve(c.podName())).orElse(config.dataDir());
    }

    /** The data volume a configuration asks for: the directory on disk, or memory for {@code KAAS_STORAGE=memory}. */
    public static Filesystem volumeFor(BrokerConfig config) {
        return config.storage() == BrokerConfig.Storage.DISK ? new NioFilesystem()
                : new MemoryFilesystem(System::currentTimeMillis);
    }

    /**
     * Starts a broker whose every file goes through {@code fs}: the real volume (or memory) in
     * production, a checking or fault-injecting filesystem in tests. In memory mode the partition
     * logs stay in memory and only the metadata stores use {@code fs}.
     */
    public static KaasBroker start(BrokerConfig config, Filesystem fs) throws InterruptedException {
        KaasLogging.configure(config.logging());
        Optional<DataDirectoryLock> lock = config.storage() == BrokerConfig.Storage.DISK
                ? Optional.of(DataDirectoryLock.acquire(lockedDirectory(config))) : Optional.empty();
        try {
            return start(config, fs, lock);
        } catch (Exception e) {
            // also a BindException, which Netty throws undeclared
            lock.ifPresent(DataDirectoryLock::close);
            throw e;
        }
    }

    private static KaasBroker start(BrokerConfig config, Filesystem fs, Optional<DataDirectoryLock> lock)
            throws InterruptedException {
        boolean disk = config.storage() == BrokerConfig.Storage.DISK;
        DataLayout layout = new DataLayout(config.dataDir());
        JacksonCodec codec = new JacksonCodec();
        JsonFiles json = new JsonFiles(fs, codec);
        Clock clock = new SystemClock();
        ExecutorScheduler scheduler = new ExecutorScheduler();
        BrokerSettings settings = new BrokerSettings(config.brokerId(), config.defaultPartitions(),
                config.autoCreateTopics(), config.maxPartitionsPerTopic());
        BrokerConfigs brokerConfigs = BrokerConfigView.of(config);
        // Standalone, dynamic broker configs live on the volume; a cluster's come from its KafkaCluster resource.
        BrokerConfigService brokerConfigService = config.cluster().isPresent()
                ? BrokerConfigService.fixed(brokerConfigs, config.brokerId())
                : BrokerConfigService.stored(brokerConfigs, new JsonDynamicBrokerConfigStore(layout, json),
                        config.brokerId());

        TopicStore topicStore = config.cluster().isPresent() ? JsonTopicStore.shared(layout, json)
                : new JsonTopicStore(layout, json);
        ProducerIdBlockStore pidStore = new JsonProducerIdBlockStore(layout, json, config.brokerId());
        String clusterId = config.clusterId().orElseGet(() -> ClusterIdFile.loadOrCreate(layout, json,
                KaasBroker::newClusterId));

        IoExecutor io = new IoExecutor();
        BrokerMetrics metrics = new BrokerMetrics(System::nanoTime);
        FetchPurgatory purgatory = new FetchPurgatory();
        FetchSessions fetchSessions = new FetchSessions(config.fetchSessionCacheSlots(),
                FetchSessionCache.DEFAULT_EVICTION_MS, clock, () -> ThreadLocalRandom.current().nextInt());
        boolean clustered = config.cluster().isPresent();
        // Moves between log dirs copy whole partitions: one at a time, on their own thread, off the I/O threads.
        ExecutorService logDirMover = Executors.newSingleThreadExecutor(task -> {
            Thread thread = new Thread(task, "kaas-log-dir-mover");
            thread.setDaemon(true);
            return thread;
        });
        LogEngine engine = disk
                ? new DiskLogEngine(new DiskLogEngine.Settings(config.dataDir(), 0, config.fsyncMaxLatencyMs(),
                        DiskLogEngine.DEFAULT_CHECKPOINT_INTERVAL_BYTES, clustered, metrics).withJournal(config.logJournal()
                                ? new DiskLogEngine.Journal(layout.journalDir(), DiskLogEngine.Journal.DEFAULT_ROTATE_BYTES)
                                : null),
                        logDirectories(config, fs), logDirMover, fs, codec, io, scheduler, clock, purgatory)
                : new MemoryLogEngine(purgatory);
        Optional<ClusterRuntime> runtime = config.cluster().map(c -> ClusterRuntime.prepare(c, clusterId,
                new ClusterUseCase.Broker(config.brokerId(), config.advertisedHost(), config.port(),
                        config.rack().orElse(null)), config.bindHost(), layout, json, clock));
        // In a cluster the operator writes the topic files from KafkaTopics; this broker reads them, and the
        // catalog says which of them still stand for a declared topic.
        TopicService topics = runtime.map(r -> TopicService.forCluster(topicStore, r.topicCatalog(), engine, settings,
                        brokerConfigs, UUID::randomUUID))
                .orElseGet(() -> new TopicService(topicStore, engine, settings, brokerConfigService.current(),
                        UUID::randomUUID));
        brokerConfigService.addListener(topics::useBrokerConfigs);
        topics.start();
        topics.addDeletionListener(topic -> metrics.forgetTopic(topic.name()));
        PartitionSweep retention = PartitionSweep.start("the retention sweep", topics, scheduler, io, clock,
                config.retentionCheckIntervalMs(), PartitionLog::applyRetention);
        Optional<LogCleanerThread> logCleaner = engine instanceof DiskLogEngine diskEngine
                ? Optional.of(new LogCleanerThread(diskEngine.cleaner(
                        metrics.tripwires().counted(new KafkaCompactionRecords()),
                        RatePacer.of(config.logCleaner().ioMaxBytesPerSecond()), config.logCleaner().mapCapacity()),
                        scheduler, config.logCleaner().backoffMs()))
                : Optional.empty();
        PartitionSweep producerExpiry = PartitionSweep.start("the producer-id expiry", topics, scheduler, io, clock,
                config.producerIdExpirationCheckIntervalMs(),
                (log, now) -> log.expireProducers(now, config.producerIdExpirationMs()));

        WireSettings wire = new WireSettings(config.bindHost(), config.port(), config.maxFrameBytes(),
                config.ioThreads(), config.socketSendBufferBytes(), config.tlsSocketSendBufferBytes(),
                config.socketReceiveBufferBytes(),
                config.connectionsMaxIdleMs(), ConnectionLimits.DEFAULT);
        // Each listener's port, as bound: with port 0 (tests) it is known only once the listener is.
        Map<String, AtomicInteger> boundPorts = new LinkedHashMap<>();
        config.listeners().forEach(l -> boundPorts.put(l.name(), new AtomicInteger(l.port())));
        AtomicInteger boundPort = boundPorts.get(config.listeners().get(0).name());
        ClusterUseCase cluster = runtime.map(ClusterRuntime::cluster).orElseGet(() -> new StandaloneCluster(clusterId,
                config.brokerId(), config.advertisedHost(), boundPort::get, config.rack().orElse(null)));
        ProducerIdService producerIds = new ProducerIdService(config.brokerId(), pidStore, io);
        TransactionServices transactions = TransactionServices.create(config.transactions(),
                new JsonTransactionStateStore(layout, json), new JsonMarkerQueue(layout, json),
                new JsonProducerFenceLog(layout, json, config.brokerId()),
                topics, cluster, producerIds, clock, scheduler, io);
        TransactionVerifier verifier = clustered ? new VerifiedHere(cluster, transactions.coordinator())
                : transactions.coordinator();
        GroupCoordinatorService groups = new GroupCoordinatorService(config.groups(),
                new JsonOffsetStore(layout, json), topics, cluster, clock, scheduler, io,
                UUID::randomUUID, verifier);
        topics.addDeletionListener(groups::onTopicDeleted);
        Optional<ClusterTopicAdmin> clusterAdmin = runtime.map(r -> new ClusterTopicAdmin(topics, r.topicCatalog(),
                settings, brokerConfigs, id -> cluster.brokers().stream().anyMatch(b -> b.id() == id), clock, scheduler,
                io));
        TopicAdminUseCase topicAdmin = clusterAdmin.<TopicAdminUseCase>map(a -> a)
                .orElseGet(() -> new StandaloneTopicAdmin(topics));
        TopicConfigWriter configWriter = clusterAdmin.<TopicConfigWriter>map(a -> a).orElse(topics);
        groups.start();
        transactions.bindGroups(groups);
        transactions.start();
        runtime.ifPresent(r -> transactions.sweeper().watchMarkerQueue());
        // Authentication reads users from memory; the I/O executor re-reads credentials.json every second.
        CredentialCache credentials = CredentialCache.load(new JsonCredentialStore(layout, json))
                .reloadEvery(CREDENTIALS_RELOAD_INTERVAL_MS, scheduler, io);
        List<Runnable> stopSequence = new ArrayList<>();
        runtime.ifPresent(r -> stopSequence.add(r::close));
        stopSequence.addAll(List.of(credentials::close, transactions::close, groups::close, producerExpiry::close,
                retention::close, () -> logCleaner.ifPresent(LogCleanerThread::close), logDirMover::shutdownNow, engine::close, scheduler::close, io::shutdown));
        KafkaServer server;
        HealthServer health;
        try {
            JsonAclStore aclStore = new JsonAclStore(layout, json);
            // In a cluster the operator writes credentials.json from KafkaUsers: SCRAM and quota changes go there.
            UserWriter users = runtime.<UserWriter>map(ClusterRuntime::userWriter)
                    .orElseGet(() -> new StoredUserWriter(credentials));
            // Every other entity's quotas: client-quotas.json, which only a standalone broker writes.
            JsonClientQuotaStore clientQuotaStore = new JsonClientQuotaStore(layout, json);
            ReloadedSnapshot<StoredClientQuotas, StoredClientQuotas> clientQuotas = ReloadedSnapshot.start(
                    DataLayout.CLUSTER_DIR + "/client-quotas.json", clientQuotaStore::read, q -> q, scheduler, io,
                    CREDENTIALS_RELOAD_INTERVAL_MS);
            stopSequence.add(0, clientQuotas::close);
            ClientQuotaWriter clientQuotaWriter = clustered ? ClientQuotaWriter.refusing(CLUSTER_QUOTAS_REFUSAL,
                    CLUSTER_IP_QUOTAS_REFUSAL)
                    : new StoredClientQuotaWriter(clientQuotaStore, clientQuotas::reload);
            AccessControl accessControl = accessControl(config,
                    runtime.map(ClusterRuntime::aclWriter).orElseGet(() -> new StoredAclWriter(aclStore)), aclStore,
                    scheduler, io, stopSequence);
            ClientQuotaEnforcer quotaEnforcer = new ClientQuotaEnforcer(new ConfiguredQuotas(credentials::current,
                    clientQuotas), config.quotaWindow(), config.controllerQuotaWindow(), clock, metrics);
            ConnectionQuotas connectionQuotas = new ConnectionQuotas(brokerConfigService.current(),
                    BrokerConfigView.apacheListenerNames(config), KaasBroker::addressOf,
                    quotaEnforcer::connectionCreation, config.quotaWindow(), clock);
            brokerConfigService.addListener(connectionQuotas::useBrokerConfigs);
            UseCases useCases = new UseCases(
                    new ProduceService(topics, clock, scheduler,
                            config.transactions().partitionVerification() ? verifier : null,
                            runtime.map(ClusterRuntime::writeFence).orElse(WriteFence.OPEN), metrics,
                            metrics.tripwires().counted(new KafkaRecordKeys())),
                    new FetchService(topics, purgatory, scheduler, io, metrics, fetchSessions),
                    new ListOffsetsService(topics, io, metrics.tripwires().counted(new KafkaBatchRecordSearch())),
                    new MetadataService(topics, topicAdmin, cluster, settings, io),
                    topicAdmin,
                    cluster,
                    producerIds,
                    new DeleteRecordsService(topics, io),
                    new ConfigService(topics, configWriter, brokerConfigService, config.brokerId(),
                            KaasLogging.levels()),
                    new LogDirsService(topics, engine, io),
                    groups,
                    transactions.coordinator(),
                    transactions.markers(),
                    transactions.producers(),
                    new PartitionLeadershipService(topics, cluster),
                    new UserScramCredentialService(credentials, users),
                    new ClientQuotaService(credentials, users, clientQuotas, clientQuotaWriter),
                    quotaEnforcer);
            Tracer tracer = BrokerTracing.start(config.telemetry());
            if (tracer instanceof BrokerTracing tracing) {
                stopSequence.add(0, tracing::close); // after the server: the last requests' spans are sent
            }
            server = KafkaServer.start(wire, listeners(config, useCases, accessControl,
                    new SaslAuthenticator(credentials, new ScramNonces()), boundPorts,
                    oauth -> oauthAuthenticator(oauth, codec, scheduler, clock, stopSequence), clock), io, metrics,
                    tracer, connectionQuotas);
            LogDirSpaces logDirSpaces = LogDirSpaces.start(engine, LogDirectories.of(config.dataDir(),
                    config.logDirs()), scheduler, io);
            BrokerTelemetry telemetry = BrokerTelemetry.start(config.telemetry(), metrics,
                    new LiveGauges(topics, new ConsumerLag(groups, topics), groups, transactions.coordinator(), runtime,
                            logDirSpaces, clock));
            stopSequence.add(0, telemetry::close); // its last push still sees every counter
            stopSequence.add(0, logDirSpaces::close); // before the scheduler and the I/O executor it runs on
            health = startHealth(config, topics, server, runtime, codec, telemetry);
            KafkaServer listening = server;
            runtime.ifPresent(r -> r.start(topics, () -> listening.oldestLoopTickAgeMs() < HealthReport.WEDGED_AFTER_MS,
                    () -> {
                        groups.evictDisowned();
                        transactions.coordinator().followOwnership();
                        // Fences peers logged for this broker's partitions: each round, not each sweep.
                        transactions.producers().applyPeerFences();
                    }));
        } catch (Exception e) {
            // Also a BindException, which Netty throws undeclared: a failed start leaves nothing running.
            stopSequence.forEach(Runnable::run);
            throw e;
        }
        boundPorts.forEach((name, port) -> port.set(server.port(name)));
        return new KaasBroker(config, io, stopSequence, server, health, runtime, lock, fetchSessions,
                logCleaner.map(LogCleanerThread::cleaner));
    }

    /**
     * The authorizer {@code KAAS_AUTHORIZATION_TYPE} asks for. With {@code simple}, {@code acls.json} is read now
     * (a broker does not start on ACLs it cannot read) and then re-read off the event loops; standalone, the ACL
     * APIs write it; in a cluster they write KafkaUser resources, from which the operator writes it.
     */
    private static AccessControl accessControl(BrokerConfig config, AclWriter writer, AclStore store,
                                               ExecutorScheduler scheduler, IoExecutor io, List<Runnable> stopSequence) {
        AuthorizationSettings settings = config.authorization();
        if (!settings.simple()) {
            return AccessControl.DISABLED;
        }
        ReloadedSnapshot<List<AclBinding>, AclRules> acls = ReloadedSnapshot.start(DataLayout.CLUSTER_DIR + "/acls.json",
                store::read, AclRules::of, scheduler, io, settings.reloadIntervalMs());
        stopSequence.add(0, acls::close); // before the scheduler and the I/O executor it runs on
        return new AccessControl(new AclAuthorizer(settings.superUsers(), acls),
                new AclAdminService(acls, writer, acls::reload));
    }

    /**
     * One wire listener per configured one. The primary (first) listener advertises brokers as they
     * registered; every other one advertises them on its own port ({@link ListenerCluster}), so a
     * client stays on the listener it bootstrapped from.
     */
    /**
     * @param oauth builds an {@code oauth} listener's authenticator, with its own issuer keys
     */
    private static List<WireListener> listeners(BrokerConfig config, UseCases useCases, AccessControl accessControl,
                                                SaslAuthenticator authenticator, Map<String, AtomicInteger> boundPorts,
                                                Function<OAuthListenerSettings, SaslAuthenticationUseCase> oauth,
                                                Clock clock) {
        List<WireListener> listeners = new ArrayList<>();
        for (ListenerConfig listener : config.listeners()) {
            boolean primary = listeners.isEmpty();
            AtomicInteger port = boundPorts.get(listener.name());
            UseCases advertised = primary ? useCases : useCases.withCluster(new ListenerCluster(useCases.cluster(), port::get));
            SaslAuthenticationUseCase authentication = listener.saslMechanisms().isEmpty() ? null
                    : listener.oauth().map(oauth).orElse(authenticator);
            listeners.add(new WireListener(listener.name(), listener.port(), KafkaApis.registry(advertised, accessControl),
                    listener.saslMechanisms(), authentication,
                    listener.tlsSettings().map(tls -> new WireListener.Tls(tls,
                            config.authorization().sslPrincipalMapping())).orElse(null),
                    new WireListener.Sessions(listener.connectionsMaxReauthMs(), clock::nowMs)));
        }
        return listeners;
    }

    /**
     * The address a {@code max.connections.per.ip.overrides} host names, looked up when the limits change (never on
     * the accept path), as Apache resolves its overrides; null, with a warning, when it has none.
     */
    private static String addressOf(String host) {
        try {
            return InetAddress.getByName(host).getHostAddress();
        } catch (UnknownHostException e) {
            LOG.warn("max.connections.per.ip.overrides names {}, which does not resolve: its override applies to no"
                    + " connection", host);
            return null;
        }
    }

    /**
     * An {@code oauth} listener's token validation: the issuer's keys are fetched now (off this thread; tokens are
     * refused until the first fetch succeeds) and kept fresh until the broker stops.
     */
    private static SaslAuthenticationUseCase oauthAuthenticator(OAuthListenerSettings oauth, JacksonCodec codec,
                                                                ExecutorScheduler scheduler, Clock clock,
                                                                List<Runnable> stopSequence) {
        JsonObjectReader json = bytes -> {
            try {
                @SuppressWarnings("unchecked")
                Map<String, Object> object = codec.decode(bytes, Map.class);
                return object;
            } catch (IOException e) {
                throw new IllegalArgumentException(e.getMessage(), e);
            }
        };
        SigningKeyCache keys = new SigningKeyCache(new HttpJwksSource(oauth.jwksEndpoint()), json, scheduler, clock,
                oauth.jwksRefresh().toMillis(), oauth.jwksMinRefreshPause().toMillis());
        stopSequence.add(0, keys::close); // before the scheduler it refreshes on
        return new OAuthBearerAuthenticator(new JwtValidator(oauth.policy(), json), keys.start(), clock);
    }

    /**
     * The probes. A standalone broker leads every partition of every topic and is its own controller;
     * a cluster broker reports what its assignment gives it.
     */
    private static HealthServer startHealth(BrokerConfig config, TopicService topics, KafkaServer server,
                                            Optional<ClusterRuntime> runtime, JacksonCodec codec,
                                            BrokerTelemetry telemetry) {
        Supplier<HealthReport> report = runtime.<Supplier<HealthReport>>map(r -> () -> r.report(server.oldestLoopTickAgeMs()))
                .orElse(() -> new HealthReport("standalone", config.brokerId(), config.brokerId(), 0, true,
                        topics.logs().size(), topics.all().stream().mapToInt(Topic::partitionCount).sum(),
                        server.oldestLoopTickAgeMs(), true));
        try {
            return HealthServer.start(config.bindHost(), config.healthPort(), report, codec::encode,
                    new HealthServer.MetricsPage(BrokerTelemetry.prometheusContentType(), telemetry::prometheusText),
                    config.testHooks() ? Optional.of(server::wedgeEventLoops) : Optional.empty());
        } catch (IOException e) {
            server.close();
            throw new IllegalStateException("cannot serve the health probes on " + config.bindHost() + ":"
                    + config.healthPort() + " (KAAS_HEALTH_PORT): " + e.getMessage(), e);
        }
    }

    /** The port of {@code /healthz}, {@code /readyz} and {@code /metrics}. */
    public int healthPort() {
        return health.port();
    }

    /** The port the primary (first) Kafka listener is bound to. */
    public int port() {
        return server.port();
    }

    /** The port a listener of {@code KAAS_LISTENERS} is bound to. */
    public int port(String listener) {
        return server.port(listener);
    }

    /** {@code host:port} of the primary listener, for a client's {@code bootstrap.servers}. */
    public String bootstrapServers() {
        return config.advertisedHost() + ":" + port();
    }

    /** {@code host:port} of a listener of {@code KAAS_LISTENERS}, for a client's {@code bootstrap.servers}. */
    public String bootstrapServers(String listener) {
        return config.advertisedHost() + ":" + port(listener);
    }

    public BrokerConfig config() {
        return config;
    }

    /** The fetch sessions (KIP-227) this broker keeps: how many, and each fetch as they saw it. */
    public FetchSessions fetchSessions() {
        return fetchSessions;
    }

    /** Cleanings the log cleaner completed since start (0 in memory mode, which does not compact). */
    public long logCleanings() {
        return logCleaner.map(LogCleaner::cleanings).orElse(0L);
    }

    /**
     * Stops serving, then closes every log cleanly so the next start recovers only what a crash
     * would leave. Offset writes already queued finish first: the I/O executor drains its queue.
     */
    @Override
    public void close() {
        clusterRuntime.ifPresent(r -> r.drain(DRAIN_TIMEOUT_MS));
        health.close();
        server.close();
        stopSequence.forEach(Runnable::run);
        try {
            // Let queued file work (offset writes, fsyncs) finish, so the next broker on this directory starts from rest.
            if (!io.awaitTermination(10, TimeUnit.SECONDS)) {
                LOG.warn("I/O tasks still running 10 s after close");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        dataDirLock.ifPresent(DataDirectoryLock::close);
    }

    private static String newClusterId() {
        UUID id;
        do {
            id = UUID.randomUUID();
        } while (!TopicIds.isUsable(id));
        return TopicIds.toBase64(id);
    }
}
