package io.kaas.bootstrap.cluster;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.kaas.adapter.fs.DataLayout;
import io.kaas.adapter.fs.JsonAssignmentStore;
import io.kaas.adapter.fs.JsonFiles;
import io.kaas.adapter.heartbeat.GrpcHeartbeatTransport;
import io.kaas.adapter.k8s.EndpointSliceBrokerRegistry;
import io.kaas.adapter.k8s.KafkaTopicCatalog;
import io.kaas.adapter.k8s.KubernetesLeaseStore;
import io.kaas.adapter.k8s.PartitionsReadyGate;
import io.kaas.adapter.k8s.user.KafkaUserAclWriter;
import io.kaas.adapter.k8s.user.KafkaUserWriter;
import io.kaas.application.cluster.AssignedCluster;
import io.kaas.application.cluster.AssignmentFollower;
import io.kaas.application.cluster.ClusterMember;
import io.kaas.application.cluster.ControllerContactFence;
import io.kaas.application.cluster.TakeoverDriver;
import io.kaas.application.cluster.WriteFence;
import io.kaas.application.controller.ClusterController;
import io.kaas.application.controller.ControllerLease;
import io.kaas.application.port.in.ClusterUseCase;
import io.kaas.application.port.out.AclWriter;
import io.kaas.application.port.out.BrokerRegistry.RegisteredBroker;
import io.kaas.application.port.out.Clock;
import io.kaas.application.port.out.HeartbeatTransport;
import io.kaas.application.port.out.TopicCatalog;
import io.kaas.application.port.out.UserWriter;
import io.kaas.application.topic.TopicService;
import io.kaas.bootstrap.ClusterSettings;
import io.kaas.bootstrap.health.HealthReport;
import io.kaas.domain.cluster.Assignment;
import io.kaas.domain.topic.Topic;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cluster mode's moving parts around a broker's services: the Kubernetes clients (Lease, broker
 * registry, the KafkaTopic catalog), assignment.json, the heartbeat transport, and one control thread
 * running a {@link ClusterMember} round every second, on every ASSIGNMENT_CHANGED push and on every
 * change of the topic catalog. Built in two steps, because the services need its cluster view and
 * catalog and it needs their topics and coordinators. Nothing here is on the Produce/Fetch path: with
 * the API server gone the broker keeps serving what it leads.
 */
public final class ClusterRuntime implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterRuntime.class);
    private static final long ROUND_MS = 1_000;
    /** A draining controller's successor takes the Lease at its next round; past a few, nobody will. */
    private static final int ROUNDS_TO_FIND_A_CONTROLLER = 3;

    private final ClusterSettings settings;
    private final int brokerId;
    private final KubernetesClient kubernetes;
    private final EndpointSliceBrokerRegistry registry;
    private final KafkaTopicCatalog topicCatalog;
    private final ControllerLease lease;
    private final AssignmentFollower follower;
    private final AssignedCluster cluster;
    private final JsonAssignmentStore assignments;
    private final GrpcHeartbeatTransport transport;
    private final ScheduledExecutorService control;
    private final AtomicBoolean draining = new AtomicBoolean();
    /** A round is queued on the control thread already: a burst of catalog changes asks for one, not one each. */
    private final AtomicBoolean roundQueued = new AtomicBoolean();
    /** Notified at the end of every round: what a drain waits on. */
    private final Object roundEnded = new Object();
    private final Clock clock;
    /** The pod readiness gate, when the chart declares it; touched only by the control thread. */
    private final Optional<PartitionsReadyGate> partitionsReadyGate;
    private ClusterMember member;
    private volatile ClusterController controller;
    private volatile BooleanSupplier healthy = () -> true;
    private TakeoverDriver takeovers;
    private volatile HeartbeatTransport.Server heartbeatServer;
    private volatile HeartbeatTransport.Client toController;
    private String dialedController = "";

    private ClusterRuntime(ClusterSettings settings, int brokerId, KubernetesClient kubernetes,
                           EndpointSliceBrokerRegistry registry, KafkaTopicCatalog topicCatalog, ControllerLease lease,
                           AssignmentFollower follower, AssignedCluster cluster, JsonAssignmentStore assignments,
                           GrpcHeartbeatTransport transport, Clock clock) {
        this.settings = settings;
        this.brokerId = brokerId;
        this.kubernetes = kubernetes;
        this.registry = registry;
        this.topicCatalog = topicCatalog;
        this.lease = lease;
        this.follower = follower;
        this.cluster = cluster;
        this.assignments = assignments;
        this.transport = transport;
        this.clock = clock;
        this.partitionsReadyGate = settings.partitionsReadyGate()
                ? Optional.of(new PartitionsReadyGate(kubernetes, settings.namespace(), settings.podName(), clock))
                : Optional.empty();
        this.control = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "kaas-control");
            thread.setDaemon(true);
            return thread;
        });
    }

    /**
     * The first step: the cluster view the services answer from. Talks to no one yet.
     *
     * @param self this broker as clients reach it
     */
    public static ClusterRuntime prepare(ClusterSettings settings, String clusterId, ClusterUseCase.Broker self,
                                         String bindHost, DataLayout layout, JsonFiles json, Clock clock) {
        // Fail fast, no client-side retries: a control round must not hang on an API server that is gone
        // (the round retries every second anyway, and the Lease must be let go before others may take it).
        KubernetesClient kubernetes = new KubernetesClientBuilder().withConfig(new ConfigBuilder(Config.autoConfigure(null))
                .withRequestRetryBackoffLimit(0).withConnectionTimeout(2_000).withRequestTimeout(3_000).build()).build();
        EndpointSliceBrokerRegistry registry = new EndpointSliceBrokerRegistry(kubernetes, settings.namespace(),
                settings.headlessService(), new RegisteredBroker(self.id(), self.host(), self.port(),
                settings.heartbeatPort(), true));
        ControllerLease lease = new ControllerLease(new KubernetesLeaseStore(kubernetes, settings.namespace(),
                settings.leaseName()), clock, settings.podName(), settings.leaseDurationSeconds());
        JsonAssignmentStore assignments = new JsonAssignmentStore(layout, json);
        AssignmentFollower follower = new AssignmentFollower(assignments, self.id(), lease::highestEpoch);
        AssignedCluster cluster = new AssignedCluster(clusterId, self, registry, follower);
        KafkaTopicCatalog topicCatalog = new KafkaTopicCatalog(kubernetes, settings.namespace(), settings.argoCd());
        return new ClusterRuntime(settings, self.id(), kubernetes, registry, topicCatalog, lease, follower, cluster,
                assignments, new GrpcHeartbeatTransport(bindHost, settings.heartbeatPort()), clock);
    }

    public ClusterUseCase cluster() {
        return cluster;
    }

    /** Which topics the cluster declares (its KafkaTopics), and where topic admin writes go; watched from {@link #start}. */
    public TopicCatalog topicCatalog() {
        return topicCatalog;
    }

    /** Where the ACL admin APIs write: the principals' KafkaUsers, from which the operator rebuilds acls.json. */
    public AclWriter aclWriter() {
        return new KafkaUserAclWriter(kubernetes, settings.namespace(), settings.argoCd());
    }

    /**
     * Where the SCRAM and quota admin APIs write: the users' KafkaUsers, from which the operator rewrites
     * credentials.json.
     */
    public UserWriter userWriter() {
        return new KafkaUserWriter(kubernetes, settings.namespace(), settings.argoCd());
    }

    /** The self-fence Produce asks: refuses writes once the controller has not heard this broker for the heartbeat timeout. */
    public WriteFence writeFence() {
        return new ControllerContactFence(lease, withinMs -> {
            HeartbeatTransport.Client client = toController;
            return client != null && client.acknowledgedWithin(withinMs);
        }, withinMs -> {
            ClusterController running = controller;
            return running != null && running.followedWithin(withinMs);
        }, settings.heartbeatTimeoutMs());
    }

    /**
     * The second step: joins the cluster. The heartbeat server starts, the registry watch starts, and
     * the control thread runs its rounds.
     *
     * @param healthy             this broker's own liveness tick (its network loops run)
     * @param coordinatorsFollow  lets the group and transaction coordinators follow the assignment
     */
    public void start(TopicService topics, BooleanSupplier healthy, Runnable coordinatorsFollow) {
        this.healthy = healthy;
        takeovers = new TakeoverDriver(topics, brokerId);
        controller = new ClusterController(lease, assignments, registry, () -> partitionCounts(topics),
                clock, brokerId, settings.heartbeatTimeoutMs(), healthy, draining::get, this::pushAssignment);
        member = new ClusterMember(controller, topics, follower, takeovers, coordinatorsFollow);
        heartbeatServer = transport.serve(controller::onBeat);
        registry.start();
        // A KafkaTopic created, changed or deleted: served, placed or forgotten now, not at the next second.
        topicCatalog.onChange(this::requestRound);
        topicCatalog.start();
        control.scheduleWithFixedDelay(this::round, 0, ROUND_MS, TimeUnit.MILLISECONDS);
        LOG.info("broker {} ({}) joined cluster mode: namespace {}, service {}, lease {}", brokerId, settings.podName(),
                settings.namespace(), settings.headlessService(), settings.leaseName());
    }

    /** Tells every broker heartbeating here to read the assignment the controller just wrote. */
    private void pushAssignment(Assignment written) {
        HeartbeatTransport.Server server = heartbeatServer;
        if (server != null) {
            server.pushAssignmentChanged(written.controllerEpoch(), written.version());
        }
    }

    private void requestRound() {
        if (roundQueued.compareAndSet(false, true)) {
            try {
                control.execute(() -> {
                    roundQueued.set(false);
                    round();
                });
            } catch (RejectedExecutionException stopping) {
                // close() came first: no more rounds.
            }
        }
    }

    private void round() {
        try {
            member.tick();
            dialController();
            partitionsReadyGate.ifPresent(this::reflectPartitions);
        } catch (RuntimeException e) {
            LOG.warn("cluster round failed; the next one retries", e);
        }
        synchronized (roundEnded) {
            roundEnded.notifyAll();
        }
    }

    /** The gate's condition: True once the assignment is known and every partition it gives this broker is open. */
    private void reflectPartitions(PartitionsReadyGate gate) {
        HealthReport report = report(0);
        boolean open = report.assignmentKnown() && report.partitionsLed() >= report.partitionsAssigned();
        gate.reflect(open, open ? report.partitionsAssigned() + " assigned partitions open"
                : report.assignmentKnown() ? (report.partitionsAssigned() - report.partitionsLed())
                        + " assigned partitions are not open yet" : "no assignment from the controller yet");
    }

    /** Keeps one heartbeat stream to whichever broker holds the Lease (none to itself). */
    private void dialController() {
        String holder = lease.view().holder();
        if (holder.equals(settings.podName())) {
            holder = ""; // the controller does not heartbeat to itself
        }
        if (holder.equals(dialedController)) {
            return;
        }
        if (toController != null) {
            toController.close();
            toController = null;
        }
        dialedController = holder;
        if (holder.isEmpty()) {
            return;
        }
        int id = ClusterSettings.ordinalOf(holder);
        Optional<RegisteredBroker> target = registry.brokers().stream().filter(b -> b.id() == id).findFirst();
        if (target.isEmpty()) {
            dialedController = ""; // not registered yet: try again next round
            return;
        }
        toController = transport.dial(target.get().host(), target.get().heartbeatPort(), brokerId, healthy, draining::get,
                () -> control.execute(this::round));
        LOG.info("heartbeats to controller {} at {}:{}", holder, target.get().host(), target.get().heartbeatPort());
    }

    private static SortedMap<String, Integer> partitionCounts(TopicService topics) {
        SortedMap<String, Integer> counts = new TreeMap<>();
        for (Topic topic : topics.all()) {
            counts.put(topic.name(), topic.partitionCount());
        }
        return counts;
    }

    /**
     * Whether this broker sees a controller: the last election round it ran read a Lease with a holder
     * that still renews it (not left unchanged for longer than its holder acts on it).
     */
    public boolean controllerPresent() {
        return !lease.view().holder().isEmpty() && !lease.seenAbandoned(Long.MAX_VALUE);
    }

    /** What the probes report: this broker's role, and whether it leads everything it was given. */
    public HealthReport report(long loopTickAgeMs) {
        Optional<Assignment> assignment = follower.current();
        String role = lease.view().heldBySelf() ? "controller" : "broker";
        if (assignment.isEmpty() || takeovers == null) {
            return new HealthReport(role, brokerId, -1, lease.highestEpoch(), false, 0, 0, loopTickAgeMs, true);
        }
        Assignment a = assignment.get();
        return new HealthReport(role, brokerId, a.controllerId(), a.controllerEpoch(), true, takeovers.openOf(a),
                a.ledBy(brokerId).size(), loopTickAgeMs, true);
    }

    /**
     * SIGTERM: announce draining, let a controller hand the Lease on, and wait (bounded) until the
     * assignment gives this broker nothing more to lead, so its partitions move while it still serves.
     */
    public void drain(long timeoutMs) {
        draining.set(true);
        control.execute(() -> {
            if (lease.holds()) {
                lease.release();
            }
        });
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        int roundsWithoutController = 0;
        while (System.nanoTime() < deadline) {
            Optional<Assignment> a = follower.current();
            if (a.isEmpty() || a.get().alive().stream().noneMatch(id -> id != brokerId)) {
                LOG.info("no other broker is alive to take over: stopping without a drain");
                return;
            }
            // Every broker stopping at once: all step aside from the Lease, so nobody can move anything.
            roundsWithoutController = lease.view().holder().isEmpty() ? roundsWithoutController + 1 : 0;
            if (roundsWithoutController > ROUNDS_TO_FIND_A_CONTROLLER) {
                LOG.info("no controller took the Lease over: every broker is stopping, so stopping without a drain");
                return;
            }
            if (a.get().ledBy(brokerId).isEmpty() && !lease.holds()) {
                LOG.info("drained: the assignment gives this broker nothing to lead");
                return;
            }
            try {
                synchronized (roundEnded) {
                    roundEnded.wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        LOG.warn("drain did not finish within {} ms; stopping anyway", timeoutMs);
    }

    @Override
    public void close() {
        control.shutdownNow();
        try {
            control.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (toController != null) {
            toController.close();
        }
        transport.close();
        registry.close();
        topicCatalog.close();
        kubernetes.close();
    }
}
