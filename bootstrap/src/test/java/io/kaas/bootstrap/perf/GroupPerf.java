package io.kaas.bootstrap.perf;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor;
import org.apache.kafka.clients.consumer.internals.ConsumerProtocol;
import org.apache.kafka.common.message.FindCoordinatorRequestData;
import org.apache.kafka.common.message.HeartbeatRequestData;
import org.apache.kafka.common.message.JoinGroupRequestData;
import org.apache.kafka.common.message.JoinGroupResponseData;
import org.apache.kafka.common.message.OffsetCommitRequestData;
import org.apache.kafka.common.message.SyncGroupRequestData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.FindCoordinatorRequest;
import org.apache.kafka.common.requests.FindCoordinatorResponse;
import org.apache.kafka.common.requests.HeartbeatRequest;
import org.apache.kafka.common.requests.HeartbeatResponse;
import org.apache.kafka.common.requests.JoinGroupRequest;
import org.apache.kafka.common.requests.JoinGroupResponse;
import org.apache.kafka.common.requests.OffsetCommitRequest;
import org.apache.kafka.common.requests.OffsetCommitResponse;
import org.apache.kafka.common.requests.SyncGroupRequest;
import org.apache.kafka.common.requests.SyncGroupResponse;

/**
 * The consumer-group benchmark of issue 4, run against any broker with the same client code:
 * <ul>
 *   <li>rebalance latency: a stable group of N members rebalances (its leader rejoins, then every
 *       follower at once); measured from the last JoinGroup written to the last SyncGroup answered;</li>
 *   <li>OffsetCommit throughput of one group: C connections each committing one partition in a
 *       loop, each commit waiting for its answer (durable, on a broker that says so).</li>
 * </ul>
 * Usage: {@code GroupPerf host:port [rounds] [commitSeconds]}; prints one JSON object per line.
 */
public final class GroupPerf {
    private static final String TOPIC = "perf-groups";
    private static final int SESSION_MS = 30_000;
    private static final int REBALANCE_MS = 60_000;

    private final String host;
    private final int port;

    private GroupPerf(String bootstrap) {
        String[] hostPort = bootstrap.split(":");
        this.host = hostPort[0];
        this.port = Integer.parseInt(hostPort[1]);
    }

    public static void main(String[] args) throws Exception {
        GroupPerf perf = new GroupPerf(args[0]);
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 7;
        int commitSeconds = args.length > 2 ? Integer.parseInt(args[2]) : 10;
        String run = Long.toString(System.nanoTime(), 36);
        perf.createTopic(args[0]);
        perf.awaitCoordinator("perf-" + run);
        for (int members : new int[] {1, 10, 100}) {
            List<Double> ms = perf.rebalances("rebalance-" + members + "-" + run, members, rounds);
            Collections.sort(ms);
            System.out.printf(Locale.ROOT, "{\"scenario\":\"rebalance\",\"members\":%d,\"rounds\":%d,\"median_ms\":%.2f,"
                    + "\"min_ms\":%.2f,\"max_ms\":%.2f}%n", members, rounds, ms.get(ms.size() / 2), ms.get(0),
                    ms.get(ms.size() - 1));
        }
        for (int committers : new int[] {1, 16}) {
            double rate = perf.commits("commits-" + committers + "-" + run, committers, commitSeconds);
            System.out.printf(Locale.ROOT, "{\"scenario\":\"offset_commit\",\"committers\":%d,\"seconds\":%d,"
                    + "\"commits_per_s\":%.1f}%n", committers, commitSeconds, rate);
        }
    }

    /** The topic commits go to: one partition per committer. */
    private void createTopic(String bootstrap) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            if (!admin.listTopics().names().get().contains(TOPIC)) {
                admin.createTopics(List.of(new NewTopic(TOPIC, 16, (short) 1))).all().get();
            }
        }
    }

    /** Apache creates __consumer_offsets on the first FindCoordinator; wait until a coordinator answers. */
    private void awaitCoordinator(String group) throws InterruptedException {
        try (RawConnection c = connect("find")) {
            for (int i = 0; i < 600; i++) {
                FindCoordinatorResponse r = c.call(new FindCoordinatorRequest.Builder(new FindCoordinatorRequestData()
                        .setKeyType((byte) 0).setCoordinatorKeys(List.of(group))).build((short) 4));
                if (r.data().coordinators().get(0).errorCode() == Errors.NONE.code()) {
                    return;
                }
                TimeUnit.MILLISECONDS.sleep(100);
            }
        }
        throw new IllegalStateException("no group coordinator");
    }

    private RawConnection connect(String clientId) {
        return new RawConnection(host, port, clientId);
    }

    // Rebalance latency.

    private List<Double> rebalances(String group, int n, int rounds) throws Exception {
        List<Member> members = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            members.add(new Member(group, connect("member-" + i)));
        }
        ExecutorService threads = Executors.newFixedThreadPool(n);
        try {
            stabilise(members, threads);
            Member leader = members.stream().filter(m -> m.leader).findFirst().orElseThrow();
            List<Member> followers = members.stream().filter(m -> m != leader).toList();
            List<Double> results = new ArrayList<>();
            for (int r = 0; r < rounds; r++) {
                results.add(rebalanceOnce(leader, followers, threads));
            }
            return results;
        } finally {
            threads.shutdownNow();
            members.forEach(m -> m.connection.close());
        }
    }

    /**
     * Keeps every member in the group as a consumer would (rejoining whenever a heartbeat says so)
     * until all N have been synced in one generation for a second, then stops their heartbeats.
     */
    private static void stabilise(List<Member> members, ExecutorService threads) throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        List<Future<?>> loops = new ArrayList<>();
        for (Member m : members) {
            loops.add(threads.submit(() -> {
                m.keepInGroup(stop);
                return null;
            }));
        }
        long stableSinceNs = -1;
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
        while (true) {
            int generation = members.get(0).syncedGeneration;
            boolean together = generation > 0 && members.stream().allMatch(m -> m.syncedGeneration == generation);
            if (!together) {
                stableSinceNs = -1;
            } else if (stableSinceNs < 0) {
                stableSinceNs = System.nanoTime();
            } else if (System.nanoTime() - stableSinceNs > TimeUnit.SECONDS.toNanos(1)) {
                break;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("group did not stabilise");
            }
            TimeUnit.MILLISECONDS.sleep(20);
        }
        stop.set(true);
        for (Future<?> loop : loops) {
            loop.get(1, TimeUnit.MINUTES);
        }
    }

    private static double rebalanceOnce(Member leader, List<Member> followers, ExecutorService threads) throws Exception {
        leader.sendJoin();
        if (!followers.isEmpty()) {
            // The leader's join has started the rebalance once a follower's heartbeat says so.
            while (followers.get(0).heartbeat() != Errors.REBALANCE_IN_PROGRESS) {
                Thread.onSpinWait(); // each heartbeat is a round trip: this paces itself
            }
        }
        CyclicBarrier start = new CyclicBarrier(followers.size() + 1);
        AtomicLong lastJoinSent = new AtomicLong(System.nanoTime());
        AtomicLong lastSyncDone = new AtomicLong();
        CountDownLatch done = new CountDownLatch(followers.size() + 1);
        AtomicBoolean failed = new AtomicBoolean();
        List<Member> everyone = new ArrayList<>(followers);
        everyone.add(leader);
        for (Member m : everyone) {
            threads.submit(() -> {
                try {
                    if (m != leader) {
                        start.await();
                        m.sendJoin();
                        lastJoinSent.accumulateAndGet(System.nanoTime(), Math::max);
                    }
                    if (m.completeRejoin() <= 0) {
                        failed.set(true);
                    }
                    lastSyncDone.accumulateAndGet(System.nanoTime(), Math::max);
                } catch (Exception e) {
                    failed.set(true);
                } finally {
                    done.countDown();
                }
                return null;
            });
        }
        if (!followers.isEmpty()) {
            start.await();
        }
        if (!done.await(2, TimeUnit.MINUTES) || failed.get()) {
            throw new IllegalStateException("rebalance round failed");
        }
        return (lastSyncDone.get() - lastJoinSent.get()) / 1e6;
    }

    /** One simulated consumer on its own connection. */
    private static final class Member {
        private final String group;
        private final RawConnection connection;
        private final byte[] subscription;
        private String memberId = "";
        private int generation = -1;
        /** The generation this member last completed SyncGroup in, -1 while (re)joining. */
        private volatile int syncedGeneration = -1;
        private boolean leader;
        private List<String> memberIds = List.of();

        Member(String group, RawConnection connection) {
            this.group = group;
            this.connection = connection;
            ByteBuffer sub = ConsumerProtocol.serializeSubscription(new ConsumerPartitionAssignor.Subscription(List.of(TOPIC)));
            this.subscription = new byte[sub.remaining()];
            sub.get(subscription);
        }

        /** Joins, syncs and heartbeats, rejoining when told to, until {@code stop}. */
        void keepInGroup(AtomicBoolean stop) throws InterruptedException {
            while (!stop.get()) {
                if (syncedGeneration < 0) {
                    syncedGeneration = joinAndSync();
                    continue;
                }
                Errors error = heartbeat();
                if (error != Errors.NONE) {
                    syncedGeneration = -1;
                    if (error == Errors.UNKNOWN_MEMBER_ID) {
                        memberId = "";
                    }
                }
                TimeUnit.MILLISECONDS.sleep(100);
            }
        }

        /** Joins (with the KIP-394 round trip when new) and syncs; the generation, or -1 to try again. */
        int joinAndSync() {
            sendJoin();
            return completeRejoin();
        }

        void sendJoin() {
            JoinGroupRequestData data = new JoinGroupRequestData().setGroupId(group).setMemberId(memberId)
                    .setSessionTimeoutMs(SESSION_MS).setRebalanceTimeoutMs(REBALANCE_MS).setProtocolType("consumer");
            data.protocols().add(new JoinGroupRequestData.JoinGroupRequestProtocol().setName("range").setMetadata(subscription));
            connection.send(new JoinGroupRequest.Builder(data).build((short) 9));
        }

        /** Reads the JoinGroup answer, then syncs (the leader assigning nothing); the generation, or -1. */
        int completeRejoin() {
            JoinGroupResponse join = connection.receive();
            Errors error = Errors.forCode(join.data().errorCode());
            if (error == Errors.MEMBER_ID_REQUIRED) {
                memberId = join.data().memberId();
                return joinAndSync();
            }
            if (error != Errors.NONE) {
                if (error == Errors.UNKNOWN_MEMBER_ID) {
                    memberId = "";
                }
                return -1;
            }
            memberId = join.data().memberId();
            generation = join.data().generationId();
            leader = join.data().leader().equals(memberId);
            if (leader) {
                memberIds = join.data().members().stream().map(JoinGroupResponseData.JoinGroupResponseMember::memberId).toList();
            }
            SyncGroupRequestData sync = new SyncGroupRequestData().setGroupId(group).setMemberId(memberId)
                    .setGenerationId(generation).setProtocolType("consumer").setProtocolName("range");
            if (leader) {
                memberIds.forEach(id -> sync.assignments().add(new SyncGroupRequestData.SyncGroupRequestAssignment()
                        .setMemberId(id).setAssignment(new byte[0])));
            }
            SyncGroupResponse synced = connection.call(new SyncGroupRequest.Builder(sync).build((short) 5));
            return synced.data().errorCode() == Errors.NONE.code() ? generation : -1;
        }

        Errors heartbeat() {
            HeartbeatResponse r = connection.call(new HeartbeatRequest.Builder(new HeartbeatRequestData().setGroupId(group)
                    .setMemberId(memberId).setGenerationId(generation)).build((short) 4));
            return r.error();
        }
    }

    // OffsetCommit throughput.

    private double commits(String group, int committers, int seconds) throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(committers);
        AtomicLong total = new AtomicLong();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        List<Future<?>> running = new ArrayList<>();
        long start = System.nanoTime();
        for (int i = 0; i < committers; i++) {
            int partition = i;
            running.add(threads.submit(() -> {
                try (RawConnection c = connect("committer-" + partition)) {
                    long offset = 0;
                    while (System.nanoTime() < deadline) {
                        OffsetCommitRequestData data = new OffsetCommitRequestData().setGroupId(group)
                                .setGenerationIdOrMemberEpoch(-1).setMemberId("");
                        data.topics().add(new OffsetCommitRequestData.OffsetCommitRequestTopic().setName(TOPIC).setPartitions(
                                List.of(new OffsetCommitRequestData.OffsetCommitRequestPartition()
                                        .setPartitionIndex(partition).setCommittedOffset(++offset))));
                        OffsetCommitResponse r = c.call(new OffsetCommitRequest.Builder(data).build((short) 8));
                        short code = r.data().topics().get(0).partitions().get(0).errorCode();
                        if (code != Errors.NONE.code()) {
                            throw new IllegalStateException("commit failed: " + Errors.forCode(code));
                        }
                        total.incrementAndGet();
                    }
                }
                return null;
            }));
        }
        for (Future<?> f : running) {
            f.get();
        }
        double elapsed = (System.nanoTime() - start) / 1e9;
        threads.shutdown();
        return total.get() / elapsed;
    }
}
