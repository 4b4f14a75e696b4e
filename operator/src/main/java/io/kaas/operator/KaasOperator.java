package io.kaas.operator;

import static io.javaoperatorsdk.operator.api.config.LeaderElectionConfigurationBuilder.aLeaderElectionConfiguration;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.RuntimeInfo;
import io.javaoperatorsdk.operator.api.config.ConfigurationServiceOverrider;
import io.kaas.adapter.fs.DataLayout;
import io.kaas.adapter.fs.JacksonCodec;
import io.kaas.adapter.fs.JsonAclStore;
import io.kaas.adapter.fs.JsonCredentialStore;
import io.kaas.adapter.fs.JsonFiles;
import io.kaas.adapter.fs.JsonTopicStore;
import io.kaas.adapter.fs.NioFilesystem;
import io.kaas.adapter.fs.VolumePoolSetting;
import io.kaas.adapter.k8s.TopicClaims;
import io.kaas.adapter.k8s.crd.KafkaTopic;
import io.kaas.adapter.k8s.crd.KafkaUser;
import io.kaas.application.port.out.Filesystem;
import io.kaas.operator.model.PoolVolume;
import io.kaas.operator.reconciler.DeletionWatch;
import io.kaas.operator.reconciler.OrphanSweepSchedule;
import io.kaas.operator.reconciler.cluster.KafkaClusterReconciler;
import io.kaas.operator.reconciler.topic.KafkaTopicReconciler;
import io.kaas.operator.reconciler.topic.OrphanTopicSweep;
import io.kaas.operator.reconciler.topic.PoolRoots;
import io.kaas.operator.reconciler.topic.TopicLocks;
import io.kaas.operator.reconciler.topic.TopicMaterializer;
import io.kaas.operator.reconciler.user.KafkaUserReconciler;
import io.kaas.operator.reconciler.user.OrphanUserSweep;
import io.kaas.operator.reconciler.user.SecurityFiles;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The operator, wired: the KafkaTopic, KafkaUser and KafkaCluster reconcilers on java-operator-sdk, the orphan sweep
 * and the clean-up after deleted KafkaTopics and KafkaUsers, all on the data volume through the fs-nfs stores, all only
 * while this replica holds the operator's Lease (when one is configured).
 */
public final class KaasOperator implements AutoCloseable {
    private final Operator operator;
    private final OrphanSweepSchedule sweeps;
    private final List<DeletionWatch<?>> deletions;

    private KaasOperator(Operator operator, OrphanSweepSchedule sweeps, List<DeletionWatch<?>> deletions) {
        this.operator = operator;
        this.sweeps = sweeps;
        this.deletions = deletions;
    }

    /**
     * Starts reconciling {@code settings.namespace()}.
     *
     * @param client the API server's client; the caller closes it
     * @param tuning further java-operator-sdk settings (tests turn server-side apply off, which fabric8's mock lacks)
     */
    public static KaasOperator start(KubernetesClient client, OperatorSettings settings,
                                     Consumer<ConfigurationServiceOverrider> tuning) {
        Filesystem fs = new NioFilesystem();
        DataLayout layout = new DataLayout(settings.dataDir());
        JsonFiles files = new JsonFiles(fs, new JacksonCodec());
        JsonTopicStore store = JsonTopicStore.shared(layout, files);
        TopicLocks locks = new TopicLocks();
        String namespace = settings.namespace();
        PoolRoots poolRoots = new PoolRoots(settings.pool().stream().collect(Collectors.toMap(
                VolumePoolSetting.Member::name, member -> Path.of(member.path()), (a, b) -> a, LinkedHashMap::new)));
        poolRoots.requireMounted(files);
        OrphanTopicSweep topicSweep = new OrphanTopicSweep(layout, files, store, locks, poolRoots, () -> TopicClaims.claimed(
                client.resources(KafkaTopic.class).inNamespace(namespace).list().getItems()));
        // One writer of credentials.json and acls.json for the user reconciler, the deletions and the sweep.
        SecurityFiles securityFiles = new SecurityFiles(new JsonCredentialStore(layout, files),
                new JsonAclStore(layout, files));
        Supplier<List<KafkaUser>> users = () -> client.resources(KafkaUser.class).inNamespace(namespace).list()
                .getItems();
        OrphanUserSweep userSweep = new OrphanUserSweep(securityFiles, users);
        OrphanSweepSchedule sweeps = new OrphanSweepSchedule(() -> {
            topicSweep.run();
            userSweep.run();
        }, settings.sweepInterval());
        List<DeletionWatch<?>> deletions = List.of(
                new DeletionWatch<>(client, KafkaTopic.class, namespace, topicSweep::reclaim),
                new DeletionWatch<>(client, KafkaUser.class, namespace,
                        deleted -> securityFiles.remove(deleted.getMetadata().getName(), users.get())));
        Runnable lead = () -> {
            sweeps.start();
            deletions.forEach(DeletionWatch::start);
        };
        Runnable stopLeading = () -> {
            deletions.forEach(DeletionWatch::close);
            sweeps.close();
        };

        Operator operator = new Operator(overrider -> {
            overrider.withKubernetesClient(client).withCloseClientOnStop(false);
            settings.leaderElection().ifPresent(election -> overrider.withLeaderElectionConfiguration(
                    aLeaderElectionConfiguration(election.leaseName())
                            .withLeaseNamespace(namespace)
                            .withIdentity(election.identity())
                            // Sweep only while leading; losing the Lease ends the process (java-operator-sdk's default).
                            .withLeaderCallbacks(new LeaderCallbacks(lead, stopLeading, leader -> {
                            }))
                            .build()));
            tuning.accept(overrider);
        });
        KafkaTopicReconciler topics = new KafkaTopicReconciler(new TopicMaterializer(layout, files, store, poolRoots),
                locks, pool(settings), Clock.systemUTC(), UUID::randomUUID);
        operator.register(topics, configuration -> configuration.settingNamespace(namespace));
        operator.register(new KafkaUserReconciler(securityFiles, Clock.systemUTC()),
                configuration -> configuration.settingNamespace(namespace));
        operator.register(new KafkaClusterReconciler(Clock.systemUTC()),
                configuration -> configuration.settingNamespace(namespace));
        operator.start();
        if (settings.leaderElection().isEmpty()) {
            lead.run();
        }
        return new KaasOperator(operator, sweeps, deletions);
    }

    /** The data volume, then the other members in the chart's order. */
    private static List<PoolVolume> pool(OperatorSettings settings) {
        List<PoolVolume> pool = new ArrayList<>(List.of(PoolVolume.DATA_VOLUME));
        settings.pool().forEach(member -> pool.add(new PoolVolume(member.name(), member.labels(),
                member.defaultEligible(), member.cordoned())));
        return pool;
    }

    /**
     * What keeps this replica from being ready, for {@code /readyz}: java-operator-sdk not started yet, or an event
     * source (the KafkaTopic informer) that has not listed, or whose watch is broken. A standby replica under leader
     * election is ready too: its informers run and are synced, it only does not reconcile until it wins the Lease.
     */
    public List<String> notReady() {
        RuntimeInfo runtime = operator.getRuntimeInfo();
        if (!runtime.isStarted()) {
            return List.of("java-operator-sdk has not started");
        }
        List<String> reasons = new ArrayList<>();
        runtime.unhealthyEventSources().forEach((controller, sources) -> sources.keySet().forEach(source ->
                reasons.add("controller " + controller + ": event source " + source + " not synced or not watching")));
        return reasons;
    }

    /** Stops sweeping, reclaiming and reconciling; a reconcile under way finishes. */
    @Override
    public void close() {
        deletions.forEach(DeletionWatch::close);
        sweeps.close();
        operator.stop();
    }
}
