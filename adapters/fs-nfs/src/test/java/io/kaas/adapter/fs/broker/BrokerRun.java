package io.kaas.adapter.fs.broker;

import io.kaas.adapter.fs.broker.BrokerModel.Attempt;
import io.kaas.adapter.fs.broker.BrokerModel.Decision;
import io.kaas.adapter.fs.broker.BrokerModel.OffsetKey;
import io.kaas.adapter.fs.broker.BrokerModel.Sent;
import io.kaas.adapter.fs.broker.BrokerModel.Staged;
import io.kaas.adapter.fs.broker.BrokerModel.TopicModel;
import io.kaas.adapter.fs.broker.BrokerModel.TopicStatus;
import io.kaas.adapter.fs.broker.BrokerModel.Txn;
import io.kaas.adapter.fs.broker.Payloads.ReadBatch;
import io.kaas.adapter.fs.sim.SimOptions;
import io.kaas.adapter.fs.sim.SimulatedFilesystem;
import io.kaas.application.log.DiskLogEngine;
import io.kaas.application.fake.ManualClock;
import io.kaas.application.fake.ManualScheduler;
import io.kaas.application.log.LogRead;
import io.kaas.application.log.PartitionLog;
import io.kaas.application.port.in.ConfigUseCase;
import io.kaas.application.port.in.FetchUseCase;
import io.kaas.application.port.in.FetchedRecords;
import io.kaas.application.port.in.GroupCoordinator;
import io.kaas.application.port.in.ListOffsetsUseCase;
import io.kaas.application.port.in.Outcome;
import io.kaas.application.port.in.ProduceUseCase;
import io.kaas.application.port.in.TopicAdminUseCase;
import io.kaas.application.txn.TransactionSettings;
import io.kaas.domain.batch.RecordBatchHeader;
import io.kaas.domain.config.AlterOp;
import io.kaas.domain.config.BrokerConfigs;
import io.kaas.domain.config.ConfigResourceType;
import io.kaas.domain.config.TopicConfigs;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.group.Protocol;
import io.kaas.domain.log.AbortedTxn;
import io.kaas.domain.log.LogOffsets;
import io.kaas.domain.topic.Topic;
import io.kaas.domain.topic.TopicPartition;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.WritableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.BiConsumer;
import java.util.regex.Pattern;

/**
 * One seeded run of {@link BrokerSimulationTest}: a few broker processes in turn on one simulated
 * volume, each ended by a power loss (possibly in the middle of an fsync), a killed process or a
 * clean stop, driven by simulated clients; after every restart, and at the end once every client
 * has settled, the broker is checked against the {@link BrokerModel} of what the clients were told.
 * Everything runs on the caller's thread; the seed decides every choice.
 */
final class BrokerRun {
    private static final String[] TOPICS = {"t0", "t1", "t2", "t3"};
    private static final String[] COMMIT_GROUPS = {"g0", "g1"};
    /** The group transactions commit offsets to; plain commits sometimes go there too. */
    private static final String TXN_GROUP = "gt";
    /** The group of the one consumer that joins and syncs. */
    private static final String MEMBER_GROUP = "gm";
    /** How many of the last events a failure prints ({@code -Dkaas.sim.events}). */
    private static final int EVENTS_KEPT = Integer.getInteger("kaas.sim.events", 150);
    /** Whether the events include every change to the volume ({@code -Dkaas.sim.trace=true}), for replays. */
    private static final boolean TRACE_FILES = Boolean.getBoolean("kaas.sim.trace");
    private static final Pattern TEMP_NUMBER = Pattern.compile("tmp-\\d+");
    private static final int PRODUCE_TIMEOUT_MS = 30_000;
    private static final int IO_LIMIT = 200_000;
    private static final Set<KafkaError> RETRIABLE_PRODUCE = Set.of(KafkaError.KAFKA_STORAGE_ERROR,
            KafkaError.REQUEST_TIMED_OUT, KafkaError.NOT_LEADER_OR_FOLLOWER, KafkaError.NOT_ENOUGH_REPLICAS,
            KafkaError.UNKNOWN_SERVER_ERROR);
    private static final Set<KafkaError> FENCED = Set.of(KafkaError.INVALID_PRODUCER_EPOCH, KafkaError.PRODUCER_FENCED,
            KafkaError.INVALID_PRODUCER_ID_MAPPING, KafkaError.TRANSACTIONAL_ID_AUTHORIZATION_FAILED);
    private static final Set<KafkaError> COORDINATOR_RETRIABLE = Set.of(KafkaError.CONCURRENT_TRANSACTIONS,
            KafkaError.NOT_COORDINATOR, KafkaError.COORDINATOR_NOT_AVAILABLE, KafkaError.COORDINATOR_LOAD_IN_PROGRESS);

    final long seed;
    private final Random random;
    private final Random ids;
    private final ManualClock clock = new ManualClock();
    private final SimulatedFilesystem volume;
    private final BrokerConfigs brokerConfigs;
    private final BrokerModel model = new BrokerModel();
    final Deque<String> events = new ArrayDeque<>();
    /** A digest of every event, to tell two runs of one seed apart. */
    long trace = 17;
    final Stats stats = new Stats();

    // the current broker process
    private int life;
    private ProcessFilesystem process;
    private SimExecutor io;
    private ManualScheduler scheduler;
    private SimulatedBroker broker;
    /** 1 in crashOdds that the power fails just before a given fsync; 0 when not armed. */
    private int crashOdds;
    private boolean powerLost;
    private int diskFullOps;
    private String clusterId;
    private boolean finishing;
    /** The first check that failed inside an answer's callback. */
    private AssertionError failure;

    // the clients
    private final List<Producer> producers = new ArrayList<>();
    private final List<TxnProducer> txnProducers = new ArrayList<>();
    private final Member member = new Member();

    /** What a run did, for the test's summary. */
    static final class Stats {
        long operations;
        long acknowledged;
        long crashes;
        long committedTxns;
        long abortedTxns;
        long offsetCommits;
        long checks;
    }

    /** Appends made durable through the log journal (half the seeds), or null. */
    private final DiskLogEngine.Journal journal;

    BrokerRun(long seed) {
        this.seed = seed;
        this.random = new Random(seed);
        this.ids = new Random(seed ^ 0x5DEECE66DL);
        this.volume = new SimulatedFilesystem(seed, SimOptions.reliable().withTornWrites(true)
                .withGarbledTornPage(random.nextBoolean()), clock::nowMs);
        int segmentBytes = 1200 + random.nextInt(12_000);
        this.brokerConfigs = SimulatedBroker.brokerConfigs(segmentBytes);
        int idempotent = 1 + random.nextInt(3);
        for (int i = 0; i < idempotent; i++) {
            int dice = random.nextInt(10);
            producers.add(new Producer("idempotent-" + i, true, dice < 6 ? (short) -1 : dice < 9 ? (short) 1 : (short) 0));
        }
        producers.add(new Producer("plain", false, random.nextInt(4) == 0 ? (short) 1 : (short) -1));
        int transactional = 1 + random.nextInt(2);
        for (int i = 0; i < transactional; i++) {
            txnProducers.add(new TxnProducer("tx-" + i, 15_000 + random.nextInt(45_000)));
        }
        // its own well-mixed draw, so the other choices of a seed stay as they were
        SplittableRandom journalChoice = new SplittableRandom(seed);
        this.journal = journalChoice.nextBoolean()
                ? new DiskLogEngine.Journal(SimulatedBroker.DATA_DIR.resolve("__cluster").resolve("journal"),
                        500 + journalChoice.nextInt(20_000))
                : null;
        event("segment.bytes " + segmentBytes + ", producers " + producers + ", " + txnProducers
                + (journal == null ? "" : ", " + journal));
    }

    // ================================================================================== the run

    void execute() {
        int lives = 2 + random.nextInt(3);
        for (int i = 0; i < lives; i++) {
            start(i > 0 && random.nextInt(5) == 0);
            if (i == 0) {
                createTopic("t0");
                createTopic("t1");
            }
            checkRecovered();
            live(30 + random.nextInt(90));
            end();
        }
        start(false);
        checkRecovered();
        quiesce();
        checkAll(true);
        stopCleanly();
        processGone();
        start(false);
        checkAll(true);
    }

    /** Starts a broker process; a power loss may interrupt its recovery (at most twice), which then starts over. */
    private void start(boolean mayCrashDuringRecovery) {
        int crashesLeft = mayCrashDuringRecovery ? 2 : 0;
        while (true) {
            life++;
            volume.setCapacityBytes(Long.MAX_VALUE);
            volume.failNextFsyncs(0); // an injected failure still pending must not hit the next recovery
            diskFullOps = 0;
            io = new SimExecutor(random);
            scheduler = new ManualScheduler(clock);
            powerLost = false;
            process = new ProcessFilesystem(volume, this::beforeSync, TRACE_FILES ? this::event : null);
            crashOdds = crashesLeft > 0 ? 1 + random.nextInt(12) : 0;
            broker = null;
            try {
                broker = SimulatedBroker.start(process, brokerConfigs, journal, clock, scheduler, io,
                        () -> new UUID(ids.nextLong(), ids.nextLong()));
            } catch (RuntimeException e) {
                if (!powerLost) {
                    throw new AssertionError("the broker failed to start: " + e, e);
                }
            }
            crashOdds = 0;
            if (powerLost) {
                crashesLeft--;
                event("recovery interrupted by the power loss");
                processGone();
                continue;
            }
            event("broker process " + life + " started");
            if (clusterId == null) {
                clusterId = broker.clusterId;
            }
            check(clusterId.equals(broker.clusterId), "the cluster id changed from " + clusterId + " to " + broker.clusterId);
            return;
        }
    }

    /** The hook before every fsync: the power may fail right there. */
    private void beforeSync(Path path) {
        if (crashOdds > 0 && random.nextInt(crashOdds) == 0) {
            crashOdds = 0;
            event("power loss just before fsyncing " + path);
            powerLoss();
        }
    }

    private void powerLoss() {
        volume.crash();
        process.kill();
        powerLost = true;
        stats.crashes++;
    }

    private void live(int operations) {
        crashOdds = random.nextInt(3) == 0 ? 1 + random.nextInt(80) : 0;
        for (int i = 0; i < operations && !powerLost; i++) {
            operation();
            rethrow();
        }
        crashOdds = 0;
    }

    /** The process ends: power loss, killed, or a clean stop (which may itself meet a power loss). */
    private void end() {
        if (!powerLost) {
            int dice = random.nextInt(10);
            if (dice < 5) {
                if (random.nextBoolean()) {
                    runIo(random.nextInt(12));
                }
                if (!powerLost) {
                    event("power loss");
                    powerLoss();
                }
            } else if (dice < 7) {
                event("process killed");
                process.kill();
            } else {
                if (random.nextInt(4) == 0) {
                    crashOdds = 1 + random.nextInt(20); // the power may fail during the shutdown
                }
                stopCleanly();
                crashOdds = 0;
            }
        }
        processGone();
        rethrow();
    }

    /** Closes the services as KaasBroker.close does, lets the queued file work finish, and exits. */
    private void stopCleanly() {
        event("clean stop");
        try {
            broker.close();
        } catch (RuntimeException e) {
            event("the clean stop failed: " + e);
        }
        drainIo();
        if (powerLost) {
            event("the power failed during the clean stop");
        }
        process.kill();
    }

    /** Whatever the dead process still had queued never runs, and nobody answers its clients. */
    private void processGone() {
        io.drop();
        model.processDied();
        for (Producer p : producers) {
            p.processGone();
        }
        for (TxnProducer t : txnProducers) {
            t.processGone();
        }
        member.processGone();
        for (TopicModel t : model.topics.values()) {
            t.deletedThisLife = false;
        }
    }

    // ================================================================================== operations

    private void operation() {
        stats.operations++;
        if (diskFullOps > 0 && --diskFullOps == 0) {
            event("the disk has space again");
            volume.setCapacityBytes(Long.MAX_VALUE);
        }
        int dice = random.nextInt(100);
        if (dice < 22) {
            producers.get(random.nextInt(producers.size())).step();
        } else if (dice < 42) {
            runIo(1 + random.nextInt(random.nextInt(4) == 0 ? 40 : 6));
        } else if (dice < 48) {
            advanceTime();
        } else if (dice < 51) {
            createTopic(TOPICS[random.nextInt(TOPICS.length)]);
        } else if (dice < 52) {
            deleteTopic();
        } else if (dice < 55) {
            alterConfigs();
        } else if (dice < 62) {
            commitOffsets();
        } else if (dice < 64) {
            fetchOffsets(false);
        } else if (dice < 68) {
            member.step();
        } else if (dice < 83) {
            txnProducers.get(random.nextInt(txnProducers.size())).step();
        } else if (dice < 86) {
            consume();
        } else if (dice < 87) {
            listOffsets();
        } else if (dice < 89) {
            event("the next fsync fails");
            volume.failNextFsyncs(1);
        } else if (dice < 90) {
            producers.get(random.nextInt(producers.size())).dropConnection();
        } else if (dice < 92) {
            long capacity = volume.usedBytes() + random.nextInt(4000);
            diskFullOps = 1 + random.nextInt(6);
            event("the disk is full at " + capacity + " bytes for " + diskFullOps + " operations");
            volume.setCapacityBytes(capacity);
        } else {
            runIo(IO_LIMIT);
        }
    }

    /** Runs up to {@code count} queued I/O tasks, stopping at a power loss. */
    private void runIo(int count) {
        for (int i = 0; i < count && !powerLost; i++) {
            if (!io.runOne()) {
                return;
            }
        }
    }

    private void drainIo() {
        int ran = 0;
        while (!powerLost && io.runOne()) {
            if (++ran > IO_LIMIT) {
                throw new AssertionError("the I/O queue never drains");
            }
        }
    }

    private void advanceTime() {
        int dice = random.nextInt(40);
        long ms = dice < 30 ? random.nextInt(1500) : dice < 39 ? 3000 + random.nextInt(12_000) : 30_000 + random.nextInt(40_000);
        event("time passes: " + ms + " ms");
        scheduler.advance(ms);
    }

    // ---------------------------------------------------------------------------------- topics

    private void createTopic(String name) {
        int partitions = 1 + random.nextInt(3);
        Map<String, String> configs = new LinkedHashMap<>();
        for (int i = random.nextInt(3); i > 0; i--) {
            TopicConfigs.Change c = configChange(Map.of());
            if (c.op() == AlterOp.SET) {
                configs.put(c.key(), c.value());
            }
        }
        TopicModel t = model.topic(name);
        model.tick();
        TopicAdminUseCase.CreateResult r;
        try {
            r = broker.topics.create(new TopicAdminUseCase.CreateCommand(name, partitions, TopicAdminUseCase.DEFAULT,
                    Map.of(), configs, false));
        } catch (RuntimeException e) {
            r = new TopicAdminUseCase.CreateResult(KafkaError.UNKNOWN_SERVER_ERROR, e.toString(), null);
        }
        model.tick();
        event("create topic " + name + " x" + partitions + " " + configs + " -> " + r.error());
        switch (r.error()) {
            case NONE -> {
                check(t.status != TopicStatus.PRESENT, "the broker created " + name + ", which it acknowledged as created "
                        + "before (" + t + ")");
                t.present(r.topic().id(), partitions, configs);
            }
            case TOPIC_ALREADY_EXISTS -> check(t.status != TopicStatus.ABSENT,
                    "the broker has topic " + name + ", which was never created or whose deletion was acknowledged");
            case INVALID_CONFIG, INVALID_TOPIC_EXCEPTION, POLICY_VIOLATION, INVALID_PARTITIONS -> {
            }
            default -> {
                if (t.status != TopicStatus.PRESENT) {
                    t.status = TopicStatus.UNCERTAIN; // it may survive a crash: stored, then the undo failed
                }
            }
        }
    }

    private void deleteTopic() {
        List<Topic> existing = topicsInBroker();
        if (existing.isEmpty()) {
            return;
        }
        String name = existing.get(random.nextInt(existing.size())).name();
        TopicModel t = model.topic(name);
        long requested = model.tick();
        t.deletedThisLife = true;
        List<Attempt> purges = model.topicDeletionRequested(name, requested);
        TopicAdminUseCase.DeleteResult r;
        try {
            r = broker.topics.deleteByName(name);
        } catch (RuntimeException e) {
            r = new TopicAdminUseCase.DeleteResult(KafkaError.UNKNOWN_SERVER_ERROR, e.toString(), null);
        }
        long at = model.tick();
        event("delete topic " + name + " -> " + r.error() + (r.message() == null ? "" : " " + r.message()));
        boolean acked = r.error() == KafkaError.NONE;
        purges.forEach(a -> a.end(at, acked));
        if (acked) {
            check(t.status != TopicStatus.ABSENT, "deleted " + name + ", which is " + t);
            t.status = TopicStatus.ABSENT;
            t.id = null;
        } else if (r.error() == KafkaError.UNKNOWN_TOPIC_OR_PARTITION) {
            check(t.status != TopicStatus.PRESENT, "the broker lost topic " + name + ": " + t);
        } else if (t.status == TopicStatus.PRESENT) {
            // Failed: the broker keeps serving it and stores it again, but that may fail too (or the power with it),
            // and a deletion half made durable then stands. Either outcome is allowed; if it stays, it stays whole.
            t.status = TopicStatus.UNCERTAIN;
        }
    }

    private void alterConfigs() {
        List<Topic> existing = topicsInBroker();
        if (existing.isEmpty()) {
            return;
        }
        Topic topic = existing.get(random.nextInt(existing.size()));
        TopicModel t = model.topic(topic.name());
        List<TopicConfigs.Change> changes = new ArrayList<>();
        Set<String> keys = new HashSet<>();
        for (int i = 1 + random.nextInt(2); i > 0; i--) {
            TopicConfigs.Change c = configChange(topic.configs());
            if (keys.add(c.key())) {
                changes.add(c);
            }
        }
        Map<String, String> next = Map.copyOf(TopicConfigs.apply(topic.configs(), changes));
        model.tick();
        Outcome o;
        try {
            o = broker.configs.alterIncremental(new ConfigUseCase.Resource(ConfigResourceType.TOPIC, topic.name()), changes,
                    false);
        } catch (RuntimeException e) {
            o = new Outcome(KafkaError.UNKNOWN_SERVER_ERROR, e.toString());
        }
        model.tick();
        event("alter configs of " + topic.name() + " " + changes + " -> " + o.error());
        if (t.status != TopicStatus.PRESENT || !t.id.equals(topic.id())) {
            return;
        }
        if (o.error() == KafkaError.NONE) {
            t.configs.clear();
            t.configs.add(next);
            Map<String, String> now = broker.topics.byName(topic.name()).map(Topic::configs).orElse(null);
            check(next.equals(now), "after an acknowledged change " + topic.name() + " has " + now + ", not " + next);
        } else if (o.error() != KafkaError.INVALID_CONFIG && o.error() != KafkaError.INVALID_REQUEST
                && !t.configs.contains(next)) {
            t.configs.add(next); // a failed store write may still have landed
        }
    }

    /**
     * A change of a topic config that keeps every acknowledged record where it is: segment sizes and
     * ages (rolls), index density, batch size limits, timestamp type, and retention only longer than
     * the run lasts. Not flush.messages: with it above 1 acks=-1 no longer waits for an fsync, which
     * is the topic's choice, not a durability promise.
     */
    private TopicConfigs.Change configChange(Map<String, String> current) {
        if (!current.isEmpty() && random.nextInt(4) == 0) {
            List<String> keys = new ArrayList<>(current.keySet());
            keys.sort(null);
            return new TopicConfigs.Change(keys.get(random.nextInt(keys.size())), AlterOp.DELETE, null);
        }
        return switch (random.nextInt(7)) {
            case 0 -> set("segment.bytes", 1000 + random.nextInt(20_000));
            case 1 -> set("segment.ms", 1000 + random.nextInt(600_000));
            case 2 -> set("index.interval.bytes", random.nextInt(4097));
            case 3 -> set("retention.ms", random.nextInt(3) == 0 ? -1 : 30L * 86_400_000 + random.nextInt(1_000_000));
            case 4 -> set("max.message.bytes", 2500 + random.nextInt(1_000_000));
            case 5 -> new TopicConfigs.Change("message.timestamp.type", AlterOp.SET,
                    random.nextBoolean() ? "CreateTime" : "LogAppendTime");
            default -> set("min.insync.replicas", 1 + random.nextInt(2));
        };
    }

    private static TopicConfigs.Change set(String key, long value) {
        return new TopicConfigs.Change(key, AlterOp.SET, Long.toString(value));
    }

    private List<Topic> topicsInBroker() {
        List<Topic> topics = new ArrayList<>(broker.topics.all());
        topics.sort(Comparator.comparing(Topic::name));
        return topics;
    }

    /** A random partition of a topic the broker has now, or null. */
    private TopicPartition randomPartition() {
        List<Topic> topics = topicsInBroker();
        if (topics.isEmpty()) {
            return null;
        }
        Topic t = topics.get(random.nextInt(topics.size()));
        return t.partition(random.nextInt(t.partitionCount()));
    }

    private UUID topicIdNow(String topic) {
        return broker.topics.byName(topic).map(Topic::id).orElse(null);
    }

    // ---------------------------------------------------------------------------------- produce

    /** The batch for a new send. */
    private Sent newBatch(TopicPartition tp, UUID topicId, long pid, short epoch, int seq, int records, short acks,
                          Txn txn) {
        long id = model.nextBatchId();
        int filler = random.nextInt(8) == 0 ? 800 + random.nextInt(1500) : random.nextInt(200);
        byte[] bytes = Payloads.batch(id, records, clock.nowMs() - random.nextInt(1000), pid, epoch, seq, txn != null,
                filler, random);
        Sent s = new Sent(id, tp, topicId, pid, epoch, seq, records, acks, txn, bytes);
        model.register(s);
        return s;
    }

    private int recordsPerBatch() {
        return 1 + random.nextInt(random.nextInt(8) == 0 ? 20 : 4);
    }

    /** Sends one batch; {@code answer} hears the partition's result (null if the stage failed). */
    private void send(Sent s, String transactionalId, BiConsumer<ProduceUseCase.PartitionResult, Throwable> answer) {
        ProduceUseCase.Command command = new ProduceUseCase.Command(transactionalId, s.acks, PRODUCE_TIMEOUT_MS,
                List.of(new ProduceUseCase.PartitionRecords(s.tp, ByteBuffer.wrap(s.bytes.clone()))));
        model.tick();
        on(broker.produce.produce(command), (results, error) -> {
            model.tick();
            ProduceUseCase.PartitionResult r = error == null ? results.get(0) : null;
            if (r != null && r.error() == KafkaError.NONE) {
                // Once durable a batch keeps its offset; an acks=1 copy a power loss took may come back elsewhere on a re-send.
                check(s.acks != -1 || s.answeredOffset == null || s.answeredOffset == r.baseOffset(), s
                        + " answered at offset " + r.baseOffset() + " after " + s.answeredOffset);
                s.answeredOffset = r.baseOffset();
                if (s.acks == -1) {
                    s.ackedOffset = r.baseOffset();
                    stats.acknowledged++;
                }
            }
            if (s.acks != 0) {
                event("produce " + s + " -> " + (r == null ? error : r.error() + " at " + r.baseOffset()));
            }
            answer.accept(r, error);
        });
    }

    /** An idempotent (or plain) producer: per partition, sequences in order, at most three batches in flight. */
    private final class Producer {
        final String name;
        final boolean idempotent;
        final short acks;
        long producerId = -1;
        boolean awaitingId;
        /** Bumped when the producer's connection drops: answers to what it sent before never arrive. */
        int connection;
        /**
         * Per partition of each topic incarnation (never forgotten while the producer id lives: a topic that
         * went away may come back after a crash, and its sequences must not start over under the same id).
         */
        final Map<String, Stream> streams = new LinkedHashMap<>();

        Producer(String name, boolean idempotent, short acks) {
            this.name = name;
            this.idempotent = idempotent;
            this.acks = acks;
        }

        final class Stream {
            final TopicPartition tp;
            final UUID topicId;
            int nextSequence;
            /** Sent and not answered NONE, in sequence order: re-sent, the same bytes, after a retriable error. */
            final ArrayDeque<Sent> unanswered = new ArrayDeque<>();
            int inFlight;
            boolean resend;

            Stream(TopicPartition tp, UUID topicId) {
                this.tp = tp;
                this.topicId = topicId;
            }
        }

        void step() {
            if (idempotent && producerId < 0) {
                if (!awaitingId) {
                    awaitingId = true;
                    on(broker.producerIds.newProducerId(), (pid, error) -> {
                        awaitingId = false;
                        if (error == null) {
                            String reused = model.producerIdIssued(pid, name);
                            check(reused == null, reused);
                            producerId = pid;
                            event(name + " has producer id " + pid);
                        }
                    });
                }
                return;
            }
            Stream resend = streams.values().stream().filter(s -> s.resend && s.inFlight == 0).findFirst().orElse(null);
            if (resend != null) {
                resend(resend);
                return;
            }
            if (finishing) {
                return;
            }
            TopicPartition tp = randomPartition();
            if (tp == null) {
                return;
            }
            UUID topicId = topicIdNow(tp.topic());
            Stream stream = streams.computeIfAbsent(tp + "@" + topicId, k -> new Stream(tp, topicId));
            if (stream.resend || stream.inFlight >= 3) {
                return;
            }
            int records = recordsPerBatch();
            Sent s = newBatch(tp, topicId, idempotent ? producerId : -1, idempotent ? (short) 0 : (short) -1,
                    idempotent ? stream.nextSequence : -1, records, acks, null);
            stream.nextSequence += records;
            if (idempotent && acks != 0) {
                stream.unanswered.add(s);
            }
            transmit(stream, s);
        }

        private void resend(Stream stream) {
            stream.resend = false;
            if (!stream.topicId.equals(topicIdNow(stream.tp.topic()))) {
                // The topic is gone, or a new incarnation has its name: the model keeps each batch in the incarnation
                // it was first sent to, so this producer gives them up (a real one would re-send them to the new topic).
                reset("its topic " + stream.tp.topic() + " went away");
                return;
            }
            event(name + " re-sends " + stream.unanswered.size() + " batch(es) to " + stream.tp);
            for (Sent s : List.copyOf(stream.unanswered)) {
                transmit(stream, s);
            }
        }

        private void transmit(Stream stream, Sent s) {
            stream.inFlight++;
            long pidAtSend = producerId;
            int connectionAtSend = connection;
            send(s, null, (r, error) -> {
                if (connectionAtSend != connection) {
                    return; // sent on a connection that dropped: the answer reaches nobody
                }
                stream.inFlight--;
                if (acks == 0 || streams.get(stream.tp + "@" + stream.topicId) != stream || producerId != pidAtSend) {
                    return; // nobody hears an acks=0 answer; a reset producer forgot the stream
                }
                KafkaError e = r == null ? KafkaError.UNKNOWN_SERVER_ERROR : r.error();
                if (e == KafkaError.NONE) {
                    stream.unanswered.remove(s);
                } else if (!idempotent) {
                    stream.unanswered.remove(s); // a plain producer does not retry (it would duplicate)
                } else if (RETRIABLE_PRODUCE.contains(e)) {
                    stream.resend = true;
                } else {
                    // Out of order, unknown producer, fenced, too large, the topic gone: start over with a new producer
                    // id (the batches it gives up would leave a gap in its sequence; the topic may come back after a crash).
                    reset(e.toString());
                }
            });
        }

        private void reset(String why) {
            event(name + " resets after " + why + ", abandoning its unanswered batches");
            producerId = -1;
            streams.clear();
        }

        /**
         * The connection drops while requests are in flight: the broker still handles them, the producer
         * hears nothing and re-sends what is unanswered on a new connection - possibly while the broker
         * has appended the first copy and not made it durable yet.
         */
        void dropConnection() {
            event(name + "'s connection drops");
            connection++;
            for (Stream s : streams.values()) {
                if (s.inFlight > 0) {
                    s.inFlight = 0;
                    s.resend = !s.unanswered.isEmpty();
                }
            }
        }

        void processGone() {
            awaitingId = false;
            for (Stream s : streams.values()) {
                s.inFlight = 0;
                s.resend = !s.unanswered.isEmpty();
            }
        }

        boolean settled() {
            return !awaitingId && streams.values().stream().allMatch(s -> s.inFlight == 0 && s.unanswered.isEmpty());
        }

        @Override
        public String toString() {
            return name + (idempotent ? "" : " (no producer id)") + " acks=" + acks;
        }
    }

    // ---------------------------------------------------------------------------------- transactions

    private enum TxnState { NEEDS_INIT, READY, ADDING, IN_TXN, ENDING }

    /**
     * A transactional producer: InitProducerId, then transactions of AddPartitions, transactional
     * batches (acks=-1) and maybe a TxnOffsetCommit, ended by a commit (only when every batch was
     * acknowledged) or an abort. A fencing error means a new InitProducerId; any other failure inside a
     * transaction means it must abort.
     */
    private final class TxnProducer {
        final String transactionalId;
        final int timeoutMs;
        TxnState state = TxnState.NEEDS_INIT;
        long producerId = -1;
        short epoch = -1;
        Txn txn;
        boolean busy;
        int inFlight;
        boolean mustAbort;
        boolean fenced;
        boolean offsetsAdded;
        boolean offsetsDone;
        boolean commit;
        final Map<TopicPartition, int[]> sequences = new HashMap<>();
        final Map<TopicPartition, UUID> incarnations = new HashMap<>();

        TxnProducer(String transactionalId, int timeoutMs) {
            this.transactionalId = transactionalId;
            this.timeoutMs = timeoutMs;
        }

        void step() {
            if (busy) {
                return;
            }
            switch (state) {
                case NEEDS_INIT -> init();
                case READY -> {
                    if (!finishing) {
                        begin();
                    }
                }
                case ADDING -> {
                }
                case IN_TXN -> inTransaction();
                case ENDING -> end();
            }
        }

        private void init() {
            busy = true;
            on(broker.transactions.coordinator().initProducerId(transactionalId, timeoutMs, null), (r, error) -> {
                busy = false;
                event(transactionalId + " InitProducerId -> " + (r == null ? error : r.error() + " pid " + r.producerId()
                        + " epoch " + r.producerEpoch()));
                if (r != null && r.error() == KafkaError.NONE) {
                    String reused = model.producerIdIssued(r.producerId(), transactionalId);
                    check(reused == null, reused);
                    check(r.producerId() != producerId || r.producerEpoch() > epoch, transactionalId
                            + " re-initialised without a newer epoch: " + r.producerEpoch() + " after " + epoch);
                    producerId = r.producerId();
                    epoch = r.producerEpoch();
                    sequences.clear();
                    state = TxnState.READY;
                    fenced = false;
                    mustAbort = false;
                }
            });
        }

        private void begin() {
            Set<TopicPartition> partitions = new LinkedHashSet<>();
            for (int i = 1 + random.nextInt(2); i > 0; i--) {
                TopicPartition tp = randomPartition();
                if (tp != null) {
                    partitions.add(tp);
                }
            }
            if (partitions.isEmpty()) {
                return;
            }
            txn = model.newTxn(transactionalId, producerId, epoch);
            txn.partitions.addAll(partitions);
            offsetsAdded = false;
            offsetsDone = false;
            mustAbort = false;
            state = TxnState.ADDING;
            busy = true;
            Txn current = txn;
            on(broker.transactions.coordinator().addPartitions(transactionalId, producerId, epoch, partitions),
                    (errors, error) -> {
                        busy = false;
                        event(current.name() + " AddPartitions " + partitions + " -> " + (errors == null ? error : errors));
                        Set<KafkaError> distinct = errors == null ? Set.of(KafkaError.UNKNOWN_SERVER_ERROR)
                                : new HashSet<>(errors.values());
                        if (distinct.equals(Set.of(KafkaError.NONE))) {
                            for (TopicPartition tp : partitions) {
                                UUID id = topicIdNow(tp.topic());
                                if (!Optional.ofNullable(id).equals(Optional.ofNullable(incarnations.get(tp)))) {
                                    sequences.remove(tp); // a new incarnation: no producer state there yet
                                    incarnations.put(tp, id);
                                }
                            }
                            state = TxnState.IN_TXN;
                        } else if (distinct.stream().anyMatch(FENCED::contains) || distinct.contains(KafkaError.INVALID_TXN_STATE)) {
                            state = TxnState.NEEDS_INIT;
                        } else {
                            state = TxnState.READY; // retried as a new transaction; the coordinator's may still be open
                        }
                    });
        }

        private void inTransaction() {
            if (fenced) {
                if (inFlight == 0) {
                    state = TxnState.NEEDS_INIT;
                }
                return;
            }
            int dice = random.nextInt(10);
            if (!finishing && !mustAbort && dice < 6 && inFlight < 3) {
                produce();
            } else if (!finishing && !mustAbort && dice < 8 && !offsetsDone) {
                offsets();
            } else if (inFlight == 0) {
                commit = !mustAbort && txn.sends.stream().allMatch(s -> s.ackedOffset != null) && random.nextInt(3) != 0
                        && offsetsDone == offsetsAdded;
                model.endRequested(txn, commit);
                state = TxnState.ENDING;
                end();
            }
        }

        private void produce() {
            List<TopicPartition> partitions = new ArrayList<>(txn.partitions);
            TopicPartition tp = partitions.get(random.nextInt(partitions.size()));
            UUID topicId = incarnations.get(tp);
            if (topicId == null || !topicId.equals(topicIdNow(tp.topic()))) {
                mustAbort = true; // the topic went away under the transaction
                return;
            }
            int[] seq = sequences.computeIfAbsent(tp, k -> new int[1]);
            int records = recordsPerBatch();
            Sent s = newBatch(tp, topicId, producerId, epoch, seq[0], records, (short) -1, txn);
            seq[0] += records;
            inFlight++;
            send(s, transactionalId, (r, error) -> {
                inFlight--;
                KafkaError e = r == null ? KafkaError.UNKNOWN_SERVER_ERROR : r.error();
                if (FENCED.contains(e)) {
                    fenced = true;
                } else if (e != KafkaError.NONE) {
                    mustAbort = true;
                }
            });
        }

        /** AddOffsetsToTxn, then (next step) the TxnOffsetCommit. */
        private void offsets() {
            busy = true;
            if (!offsetsAdded) {
                on(broker.transactions.coordinator().addOffsets(transactionalId, producerId, epoch, TXN_GROUP), (e, error) -> {
                    busy = false;
                    event(txn.name() + " AddOffsetsToTxn -> " + (e == null ? error : e));
                    if (e == KafkaError.NONE) {
                        offsetsAdded = true;
                    } else if (FENCED.contains(e)) {
                        fenced = true;
                    } else {
                        mustAbort = true;
                    }
                });
                return;
            }
            TopicPartition tp = randomPartition();
            if (tp == null) {
                busy = false;
                return;
            }
            OffsetKey key = new OffsetKey(TXN_GROUP, tp);
            long value = model.nextOffsetValue();
            Staged staged = model.stage(txn, key, value);
            Txn current = txn;
            on(broker.groups.commitTransactionalOffsets(new GroupCoordinator.TxnCommitRequest(transactionalId, TXN_GROUP,
                    producerId, epoch, "", null, -1, List.of(new GroupCoordinator.OffsetCommit(tp, value, -1, null)))),
                    (errors, error) -> {
                        busy = false;
                        model.tick();
                        KafkaError e = errors == null ? KafkaError.UNKNOWN_SERVER_ERROR : errors.get(tp);
                        event(current.name() + " TxnOffsetCommit " + key + "=" + value + " -> " + e);
                        if (e == KafkaError.NONE) {
                            staged.stageAcked = true;
                            offsetsDone = true;
                        } else if (FENCED.contains(e)) {
                            fenced = true;
                        } else {
                            mustAbort = true;
                        }
                    });
        }

        private void end() {
            busy = true;
            Txn current = txn;
            on(broker.transactions.coordinator().endTxn(transactionalId, producerId, epoch, commit), (e, error) -> {
                busy = false;
                event(current.name() + " EndTxn(" + (commit ? "commit" : "abort") + ") -> " + (e == null ? error : e));
                if (e == KafkaError.NONE) {
                    model.endAcked(current);
                    if (commit) {
                        stats.committedTxns++;
                    } else {
                        stats.abortedTxns++;
                    }
                    state = mustAbort ? TxnState.NEEDS_INIT : TxnState.READY; // after a failed batch its sequences are unsure
                } else if (e != null && COORDINATOR_RETRIABLE.contains(e)) {
                    state = TxnState.ENDING; // retried, same outcome
                } else {
                    model.endUnknown(current);
                    state = TxnState.NEEDS_INIT;
                }
            });
        }

        void processGone() {
            busy = false;
            inFlight = 0;
            switch (state) {
                case ADDING -> state = TxnState.NEEDS_INIT;
                case IN_TXN -> {
                    if (random.nextBoolean()) {
                        state = TxnState.NEEDS_INIT;
                    } else {
                        mustAbort = true; // its batches' fate is unknown: abort
                    }
                }
                case ENDING -> {
                    if (random.nextInt(3) == 0) {
                        model.endUnknown(txn);
                        state = TxnState.NEEDS_INIT; // gives up; InitProducerId completes or aborts it
                    }
                }
                default -> {
                }
            }
        }

        boolean settled() {
            return !busy && inFlight == 0 && state == TxnState.READY;
        }

        @Override
        public String toString() {
            return transactionalId + " (timeout " + timeoutMs + " ms)";
        }
    }

    // ---------------------------------------------------------------------------------- offsets

    private void commitOffsets() {
        int dice = random.nextInt(6);
        String group = dice < 2 ? TXN_GROUP : COMMIT_GROUPS[dice % COMMIT_GROUPS.length];
        Map<TopicPartition, Attempt> attempts = new LinkedHashMap<>();
        List<GroupCoordinator.OffsetCommit> commits = new ArrayList<>();
        for (int i = 1 + random.nextInt(2); i > 0; i--) {
            // In the transactions' group, often a partition a transaction staged an offset for: plain and
            // transactional commits of one partition must order as Apache orders them.
            TopicPartition tp = group.equals(TXN_GROUP) && random.nextInt(4) != 0 ? stagedPartition() : randomPartition();
            if (tp == null || attempts.containsKey(tp)) {
                continue;
            }
            long value = model.nextOffsetValue();
            attempts.put(tp, model.commitRequested(new OffsetKey(group, tp), value, "commit by " + group,
                    "committer of " + group + " in process " + life));
            commits.add(new GroupCoordinator.OffsetCommit(tp, value, -1, null));
        }
        if (commits.isEmpty()) {
            return;
        }
        stats.offsetCommits++;
        on(broker.groups.commitOffsets(new GroupCoordinator.CommitRequest(group, "", null, -1, -1, commits)),
                (errors, error) -> answerCommit(group, attempts, errors));
    }

    /** A partition of an existing topic some transaction staged an offset for lately, or else any partition. */
    private TopicPartition stagedPartition() {
        for (int i = model.txns.size() - 1; i >= Math.max(0, model.txns.size() - 4); i--) {
            for (Staged staged : model.txns.get(i).staged) {
                if (topicIdNow(staged.key.tp().topic()) != null) {
                    return staged.key.tp();
                }
            }
        }
        return randomPartition();
    }

    private void answerCommit(String group, Map<TopicPartition, Attempt> attempts, Map<TopicPartition, KafkaError> errors) {
        long at = model.tick();
        attempts.forEach((tp, a) -> a.end(at, errors != null && errors.get(tp) == KafkaError.NONE));
        event("commit " + group + " " + attempts + " -> " + errors);
    }

    /** OffsetFetch of a group's keys, each checked against what its commits allow. */
    private CompletableFuture<?> fetchOffsets(String group, boolean everyKey) {
        List<TopicPartition> partitions = new ArrayList<>();
        for (OffsetKey key : model.offsetHistories().keySet()) {
            if (key.group().equals(group) && (everyKey || !model.topic(key.tp().topic()).deletedThisLife)) {
                partitions.add(key.tp());
            }
        }
        if (partitions.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        return on(broker.groups.fetchOffsets(group, partitions, false), (result, error) -> {
            if (process.isDead()) {
                return;
            }
            check(error == null && result.error() == KafkaError.NONE, "OffsetFetch of " + group + " failed: "
                    + (error == null ? result.error() : error));
            stats.checks++;
            for (GroupCoordinator.PartitionOffset po : result.partitions()) {
                OffsetKey key = new OffsetKey(group, po.partition());
                check(model.offsetAllowed(key, po.offset()), "OffsetFetch of " + key + " answered "
                        + (po.offset() == BrokerModel.ABSENT ? "no offset" : po.offset()) + ", which "
                        + "its commits do not allow: " + model.history(key) + "; the group's file holds "
                        + groupFile(group));
            }
        });
    }

    /** The group's offsets file as the volume holds it now, for failure messages. */
    private String groupFile(String group) {
        try {
            return volume.readAll(SimulatedBroker.DATA_DIR.resolve("__cluster/__consumer_offsets/" + group + ".json"))
                    .map(b -> new String(b, StandardCharsets.UTF_8)).orElse("nothing");
        } catch (IOException e) {
            return e.toString();
        }
    }

    private void fetchOffsets(boolean everyKey) {
        List<String> groups = groupsWithOffsets();
        if (!groups.isEmpty()) {
            fetchOffsets(groups.get(random.nextInt(groups.size())), everyKey);
        }
    }

    private List<String> groupsWithOffsets() {
        Set<String> groups = new TreeSet<>();
        model.offsetHistories().keySet().forEach(k -> groups.add(k.group()));
        return new ArrayList<>(groups);
    }

    /** One consumer of its own group: joins, syncs, heartbeats and commits with its generation. */
    private final class Member {
        String memberId = "";
        int generation = -1;
        boolean joined;
        boolean syncing;
        boolean busy;

        void step() {
            if (busy) {
                return;
            }
            busy = true;
            if (syncing) {
                on(broker.groups.syncGroup(new GroupCoordinator.SyncRequest(MEMBER_GROUP, memberId, null, generation,
                        "sim", "range", Map.of(memberId, new byte[] {1}))), (r, error) -> {
                            busy = false;
                            syncing = false;
                            KafkaError e = r == null ? KafkaError.UNKNOWN_SERVER_ERROR : r.error();
                            event("member sync generation " + generation + " -> " + e);
                            joined = e == KafkaError.NONE;
                            forgetIfUnknown(e);
                        });
            } else if (!joined) {
                on(broker.groups.joinGroup(new GroupCoordinator.JoinRequest(MEMBER_GROUP, memberId, null, true, false,
                        "sim", "/127.0.0.1", 60_000, 30_000, "sim", List.of(new Protocol("range", new byte[] {0})), null)),
                        (r, error) -> {
                            busy = false;
                            KafkaError e = r == null ? KafkaError.UNKNOWN_SERVER_ERROR : r.error();
                            event("member join as '" + memberId + "' -> " + e + (r == null ? "" : " generation " + r.generationId()));
                            if (e == KafkaError.MEMBER_ID_REQUIRED || e == KafkaError.NONE) {
                                memberId = r.memberId();
                            }
                            if (e == KafkaError.NONE) {
                                generation = r.generationId();
                                syncing = true;
                            }
                            forgetIfUnknown(e);
                        });
            } else if (random.nextInt(3) == 0) {
                on(broker.groups.heartbeat(MEMBER_GROUP, memberId, null, generation), (e, error) -> {
                    busy = false;
                    if (e != KafkaError.NONE) {
                        event("member heartbeat -> " + e);
                        joined = false;
                        forgetIfUnknown(e);
                    }
                });
            } else {
                TopicPartition tp = randomPartition();
                if (tp == null) {
                    busy = false;
                    return;
                }
                long value = model.nextOffsetValue();
                Map<TopicPartition, Attempt> attempts = Map.of(tp, model.commitRequested(new OffsetKey(MEMBER_GROUP, tp),
                        value, "commit by member generation " + generation, "member in process " + life));
                on(broker.groups.commitOffsets(new GroupCoordinator.CommitRequest(MEMBER_GROUP, memberId, null, generation,
                        -1, List.of(new GroupCoordinator.OffsetCommit(tp, value, -1, null)))), (errors, error) -> {
                            busy = false;
                            answerCommit(MEMBER_GROUP, attempts, errors);
                            KafkaError e = errors == null ? KafkaError.UNKNOWN_SERVER_ERROR : errors.get(tp);
                            if (e != KafkaError.NONE && e != KafkaError.UNKNOWN_TOPIC_OR_PARTITION) {
                                joined = false;
                                forgetIfUnknown(e);
                            }
                        });
            }
        }

        private void forgetIfUnknown(KafkaError e) {
            if (e == KafkaError.UNKNOWN_MEMBER_ID || e == KafkaError.FENCED_INSTANCE_ID) {
                memberId = "";
                joined = false;
            }
        }

        void processGone() {
            busy = false;
            syncing = false;
        }
    }

    // ---------------------------------------------------------------------------------- reads

    /** A consumer's fetch through FetchService: every batch must be one sent there, whole and in order. */
    private void consume() {
        TopicPartition tp = randomPartition();
        if (tp == null) {
            return;
        }
        UUID topicId = topicIdNow(tp.topic());
        LogOffsets offsets = broker.topics.log(tp).orElseThrow().offsets();
        long from = offsets.logStartOffset() + (long) (random.nextDouble() * (offsets.highWatermark() - offsets.logStartOffset() + 1));
        boolean readCommitted = random.nextBoolean();
        on(broker.fetch.fetch(new FetchUseCase.Command(0, 1, 1 << 20, readCommitted,
                List.of(new FetchUseCase.PartitionRequest(tp, from, 1 << 16)))), (data, error) -> {
                    if (process.isDead()) {
                        return;
                    }
                    check(error == null, "a fetch of " + tp + " failed: " + error);
                    FetchUseCase.PartitionData d = data.get(0);
                    if (d.error() != KafkaError.NONE || !topicId.equals(topicIdNow(tp.topic()))) {
                        return;
                    }
                    long next = -1;
                    for (ReadBatch b : Payloads.split(ByteBuffer.wrap(bytesOf(d.records())))) {
                        check(next < 0 ? b.header().baseOffset() <= from && from <= b.header().lastOffset() || from == b.header().baseOffset()
                                : b.header().baseOffset() == next, "fetched batches of " + tp + " from " + from
                                + " are not contiguous at " + b.header().baseOffset());
                        next = b.header().lastOffset() + 1;
                        check(!readCommitted || b.header().lastOffset() < d.offsets().lastStableOffset(), "read_committed "
                                + "returned offset " + b.header().lastOffset() + " at or past the LSO " + d.offsets().lastStableOffset());
                        if (!b.isControl()) {
                            Sent s = model.sent.get(b.id());
                            check(s != null && s.tp.equals(tp) && s.topicId.equals(topicId), "fetched batch " + b.id() + " at "
                                    + b.header().baseOffset() + " of " + tp + " was not sent there: " + s);
                        }
                    }
                    stats.checks++;
                });
    }

    private static byte[] bytesOf(FetchedRecords records) {
        Optional<ByteBuffer> memory = records.inMemory();
        if (memory.isPresent()) {
            ByteBuffer b = memory.get();
            byte[] out = new byte[b.remaining()];
            b.get(out);
            return out;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (WritableByteChannel channel = Channels.newChannel(out)) {
            long sent = 0;
            while (sent < records.sizeInBytes()) {
                long n = records.transferTo(channel, sent, records.sizeInBytes() - sent);
                if (n <= 0) {
                    throw new AssertionError("the fetched records stop after " + sent + " of " + records.sizeInBytes() + " bytes");
                }
                sent += n;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    private void listOffsets() {
        TopicPartition tp = randomPartition();
        if (tp == null) {
            return;
        }
        UUID topicId = topicIdNow(tp.topic());
        long ackedEnd = model.ackedEnd(topicId, tp.partition());
        on(broker.listOffsets.listOffset(tp, ListOffsetsUseCase.LATEST, false), (r, error) -> {
            if (error == null && r.error() == KafkaError.NONE && topicId.equals(topicIdNow(tp.topic()))) {
                check(r.offset() >= ackedEnd, "ListOffsets(latest) of " + tp + " is " + r.offset()
                        + ", below the acknowledged end " + ackedEnd);
            }
        });
    }

    // ================================================================================== settling

    /**
     * Lets every client finish what it started, with no faults: producers re-send until answered,
     * transactions end (a producer that lost track of one re-initialises, which aborts it), and the
     * coordinator's sweeps run. Afterwards no transaction may be left open.
     */
    private void quiesce() {
        finishing = true;
        event("settling");
        for (int round = 0; round < 400 && !settled(); round++) {
            for (Producer p : producers) {
                p.step();
            }
            for (TxnProducer t : txnProducers) {
                t.step();
            }
            drainIo();
            scheduler.advance(1000);
            drainIo();
            rethrow();
        }
        check(settled(), "the clients never settled: " + txnProducers.stream().map(t -> t + " " + t.state + " busy " + t.busy
                + " in flight " + t.inFlight).toList() + ", " + producers.stream().map(p -> p + " settled " + p.settled()).toList());
        scheduler.advance(TransactionSettings.DEFAULTS.abortTimedOutIntervalMs() + 1); // one sweep: the reconcile
        drainIo();
        rethrow();
    }

    private boolean settled() {
        return producers.stream().allMatch(Producer::settled) && txnProducers.stream().allMatch(TxnProducer::settled);
    }

    // ================================================================================== checks

    private void checkRecovered() {
        checkAll(false);
    }

    /**
     * Everything the clients were told, against the broker as it is now. {@code settled}: after
     * {@link #quiesce}, when no transaction may still be open.
     */
    private void checkAll(boolean settled) {
        event("check" + (settled ? " (settled)" : ""));
        int armed = crashOdds;
        crashOdds = 0;
        checkTopics();
        Map<Txn, int[]> txnVisibility = new HashMap<>();
        for (TopicModel t : model.topics.values()) {
            if (t.status == TopicStatus.PRESENT) {
                for (int p = 0; p < t.partitions; p++) {
                    checkPartition(t, p, settled, txnVisibility);
                }
            }
        }
        if (settled) {
            txnVisibility.forEach((txn, counts) -> check(counts[1] == 0 || counts[1] == counts[0], txn + " is visible to "
                    + "read_committed on " + counts[1] + " of the " + counts[0] + " batches it has in the logs"));
        }
        List<CompletableFuture<?>> fetches = new ArrayList<>();
        for (String group : groupsWithOffsets()) {
            // After a restart some groups are left unloaded, so that requests may meet them loading.
            if (settled || random.nextBoolean()) {
                fetches.add(fetchOffsets(group, true));
            }
        }
        for (CompletableFuture<?> f : fetches) {
            await(f, "OffsetFetch");
        }
        rethrow();
        crashOdds = armed;
    }

    private void checkTopics() {
        for (TopicModel t : model.topics.values()) {
            Optional<Topic> actual = broker.topics.byName(t.name);
            switch (t.status) {
                case PRESENT -> {
                    check(actual.isPresent(), "topic " + t + ", acknowledged as created, is gone");
                    check(actual.get().id().equals(t.id), "topic " + t + " came back as incarnation " + actual.get().id());
                    check(actual.get().partitionCount() == t.partitions, "topic " + t + " has "
                            + actual.get().partitionCount() + " partitions");
                    check(t.configs.contains(actual.get().configs()), "topic " + t + " has configs " + actual.get().configs()
                            + ", which no acknowledged or pending change set");
                    t.configs.clear();
                    t.configs.add(actual.get().configs());
                }
                case ABSENT -> check(actual.isEmpty(), "topic " + t.name + " exists (" + actual.orElse(null)
                        + ") though it was never created or its deletion was acknowledged");
                case UNCERTAIN -> {
                    if (actual.isPresent()) {
                        Topic a = actual.get();
                        event("topic " + t.name + " survived as " + a.id());
                        t.present(a.id(), a.partitionCount(), a.configs());
                    } else {
                        // Gone: an unanswered or failed deletion took effect (possibly only now: its process went
                        // on serving the topic when it could not store it again), and its offsets went with it.
                        t.status = TopicStatus.ABSENT;
                        t.id = null;
                        long now = model.tick();
                        model.topicDeletionRequested(t.name, now).forEach(a -> a.end(now, true));
                    }
                }
            }
        }
        for (Topic topic : broker.topics.all()) {
            TopicModel t = model.topics.get(topic.name());
            check(t != null && t.status == TopicStatus.PRESENT, "the broker has topic " + topic + " nobody created");
        }
    }

    /**
     * One partition: the whole log read back (read_uncommitted) is contiguous, every batch in it was
     * sent there and is there once, each producer's batches are in sequence order, every batch
     * answered NONE is at the offset it was answered with (acks=-1: must be there); and through
     * read_committed (filtered as a consumer does), committed transactions are visible below the LSO,
     * never-committed ones never are.
     */
    private void checkPartition(TopicModel t, int partition, boolean settled, Map<Txn, int[]> txnVisibility) {
        TopicPartition tp = new TopicPartition(t.name, partition);
        PartitionLog log = broker.topics.log(tp).orElse(null);
        check(log != null, "no log for " + tp + " of " + t);
        LogOffsets offsets = log.offsets();
        long start = offsets.logStartOffset();
        long hwm = offsets.highWatermark();
        long lso = offsets.lastStableOffset();
        check(start <= lso && lso <= hwm, tp + " has log start " + start + ", LSO " + lso + ", HWM " + hwm);
        List<ReadBatch> batches = read(log, start, hwm, false, null);
        Map<Long, Long> offsetOf = new HashMap<>();
        Map<Long, Integer> lastSequence = new HashMap<>();
        long next = start;
        for (ReadBatch b : batches) {
            RecordBatchHeader h = b.header();
            check(h.baseOffset() == next || next == start && h.baseOffset() <= start, tp + ": the batch at "
                    + h.baseOffset() + " does not follow " + (next - 1));
            next = h.lastOffset() + 1;
            if (b.isControl()) {
                check(b.marker().isPresent(), tp + ": the control batch at " + h.baseOffset() + " holds no marker");
                continue;
            }
            Sent s = model.sent.get(b.id());
            check(s != null && s.tp.equals(tp) && s.topicId.equals(t.id), tp + " (" + t.id + ") holds batch " + b.id()
                    + " at " + h.baseOffset() + ", which was not sent there: " + s);
            check(offsetOf.put(s.id, h.baseOffset()) == null, tp + " holds " + s + " twice: at " + offsetOf.get(s.id)
                    + " and " + h.baseOffset());
            check(h.producerId() == s.producerId && h.producerEpoch() == s.producerEpoch
                    && h.baseSequence() == s.baseSequence && h.recordsCount() == s.records
                    && h.isTransactional() == (s.txn != null), tp + ": the header at " + h.baseOffset() + " is not " + s);
            if (s.producerId >= 0) {
                Integer last = lastSequence.put(s.producerId * 65_536 + s.producerEpoch, h.lastSequence());
                check(last == null || h.baseSequence() > last, tp + ": " + s + " at " + h.baseOffset()
                        + " follows sequence " + last + " of its producer");
            }
        }
        check(next == hwm || batches.isEmpty() && start == hwm, tp + ": the batches end at " + next + ", the HWM is " + hwm);
        for (Sent s : model.sentTo(t.id, partition)) {
            Long at = offsetOf.get(s.id);
            if (s.ackedOffset != null) {
                check(s.ackedOffset.equals(at), tp + ": " + s + " was acknowledged with acks=-1 and is "
                        + (at == null ? "gone" : "at offset " + at) + "; the log has offsets " + start + " to " + hwm);
            }
            if (s.answeredOffset != null && at != null) {
                check(s.answeredOffset.equals(at), tp + ": " + s + " was answered at " + s.answeredOffset + " and is at " + at);
            }
        }
        // read_committed, as a consumer filters it
        Set<AbortedTxn> aborted = new LinkedHashSet<>();
        List<ReadBatch> committedRead = read(log, start, lso, true, aborted);
        Set<Long> visible = visible(committedRead, aborted);
        for (Sent s : model.sentTo(t.id, partition)) {
            Long at = offsetOf.get(s.id);
            if (at == null) {
                continue;
            }
            boolean stable = at < lso;
            if (s.txn == null) {
                check(!stable || visible.contains(s.id), tp + ": " + s + " (not transactional) is hidden from read_committed");
            } else if (!s.txn.decision.mayBeCommitted()) {
                check(!visible.contains(s.id), tp + ": " + s + " of " + s.txn + " is visible to read_committed");
            } else {
                if (s.txn.decision == Decision.COMMIT_ACKED) {
                    check(!stable || visible.contains(s.id), tp + ": " + s + " of " + s.txn + " (below the LSO " + lso
                            + ") is not visible to read_committed");
                }
                int[] counts = txnVisibility.computeIfAbsent(s.txn, x -> new int[2]);
                counts[0]++;
                counts[1] += visible.contains(s.id) ? 1 : 0;
            }
        }
        if (settled) {
            check(lso == hwm, tp + ": a transaction is left open: LSO " + lso + " < HWM " + hwm);
        }
        stats.checks++;
    }

    /** Reads [from, to) whole; {@code aborted} collects the aborted transactions of read_committed reads. */
    private List<ReadBatch> read(PartitionLog log, long from, long to, boolean readCommitted, Set<AbortedTxn> aborted) {
        List<ReadBatch> out = new ArrayList<>();
        long next = from;
        while (next < to) {
            LogRead r = log.read(next, 1 << 20, true, readCommitted);
            check(r.error() == KafkaError.NONE, log.topicPartition() + ": a read at " + next + " failed: " + r.error());
            List<ReadBatch> batches = Payloads.split(r.records().toByteBuffer());
            check(!batches.isEmpty(), log.topicPartition() + ": a read at " + next + " below " + to + " returned nothing");
            if (aborted != null) {
                aborted.addAll(r.abortedTransactions());
            }
            out.addAll(batches);
            next = batches.get(batches.size() - 1).header().lastOffset() + 1;
        }
        return out;
    }

    /** The batches a read_committed consumer delivers, filtered as Apache's consumer does. */
    private static Set<Long> visible(List<ReadBatch> batches, Set<AbortedTxn> aborted) {
        PriorityQueue<AbortedTxn> pending = new PriorityQueue<>(Comparator.comparingLong(AbortedTxn::firstOffset));
        pending.addAll(aborted);
        Set<Long> abortedProducers = new HashSet<>();
        Set<Long> visible = new HashSet<>();
        for (ReadBatch b : batches) {
            while (!pending.isEmpty() && pending.peek().firstOffset() <= b.header().lastOffset()) {
                abortedProducers.add(pending.poll().producerId());
            }
            if (b.isControl()) {
                if (b.marker().isPresent() && !b.marker().get().isCommit()) {
                    abortedProducers.remove(b.header().producerId());
                }
                continue;
            }
            if (b.header().isTransactional() && abortedProducers.contains(b.header().producerId())) {
                continue;
            }
            visible.add(b.id());
        }
        return visible;
    }

    // ================================================================================== plumbing

    /**
     * Runs {@code callback} when the stage completes, unless the process that would answer has been
     * abandoned meanwhile; a failed check inside it is kept and rethrown by the run.
     */
    private <T> CompletableFuture<T> on(CompletionStage<T> stage, BiConsumer<T, Throwable> callback) {
        int requestedIn = life;
        CompletableFuture<T> f = stage.toCompletableFuture();
        f.whenComplete((value, error) -> {
            if (requestedIn != life) {
                fail("process " + requestedIn + " answered in process " + life + "'s time: " + value + " / " + error);
                return;
            }
            try {
                callback.accept(value, error);
            } catch (AssertionError | RuntimeException e) {
                fail(e);
            }
        });
        return f;
    }

    private void await(CompletableFuture<?> f, String what) {
        int ran = 0;
        while (!f.isDone()) {
            if (!io.runOne()) {
                throw new AssertionError(what + " never completes: nothing left to run");
            }
            if (++ran > IO_LIMIT) {
                throw new AssertionError(what + " never completes");
            }
        }
    }

    private void fail(Object why) {
        if (failure == null) {
            failure = why instanceof AssertionError a ? a
                    : why instanceof Throwable t ? new AssertionError(t.toString(), t) : new AssertionError(why);
        }
    }

    private void rethrow() {
        if (failure != null) {
            throw failure;
        }
    }

    private static void check(boolean condition, String what) {
        if (!condition) {
            throw new AssertionError(what);
        }
    }

    void event(String e) {
        // Temp file names count per JVM (Filesystem.TempNames), not per run: the digest leaves them out.
        trace = trace * 31 + (e.contains("tmp-") ? TEMP_NUMBER.matcher(e).replaceAll("tmp-#") : e).hashCode();
        events.addLast("[" + model.now() + "] " + e);
        if (events.size() > EVENTS_KEPT) {
            events.removeFirst();
        }
    }
}
