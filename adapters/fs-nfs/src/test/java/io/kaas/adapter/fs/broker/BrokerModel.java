package io.kaas.adapter.fs.broker;

import io.kaas.domain.topic.TopicPartition;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;

/**
 * What the simulated clients were told, and so what the broker owes them after any crash: the
 * topics whose creation, deletion or reconfiguration was acknowledged, every batch sent (and the
 * offset of those acknowledged with acks=-1), every transaction's outcome as far as its producer
 * knows it, and every offset commit attempted and acknowledged. Operations whose answer never came
 * (the process died) or came back as an error are indeterminate: either outcome is allowed.
 *
 * <p>Time here is a logical step counter, advanced at every request and every answer, so "requested
 * after that was answered" is well defined.
 */
final class BrokerModel {
    /** The offset value that stands for "no committed offset" (what OffsetFetch answers then). */
    static final long ABSENT = -1L;

    private long step;

    /** A new logical instant. */
    long tick() {
        return ++step;
    }

    long now() {
        return step;
    }

    // ------------------------------------------------------------------------------------------ topics

    enum TopicStatus {
        /** Never created, or its deletion was acknowledged. */
        ABSENT,
        /** Its creation was acknowledged, with {@link TopicModel#id}, and no deletion was attempted since. */
        PRESENT,
        /** A creation or deletion failed or never answered: it may or may not exist. */
        UNCERTAIN
    }

    static final class TopicModel {
        final String name;
        TopicStatus status = TopicStatus.ABSENT;
        /** PRESENT: the incarnation; UNCERTAIN: the incarnation that may have survived, or null. */
        UUID id;
        int partitions;
        /** The overrides the store may hold: one after an acknowledged change, more while one is indeterminate. */
        final List<Map<String, String>> configs = new ArrayList<>();
        /** A deletion was attempted in the current process: its offsets are purged asynchronously, checked after a restart. */
        boolean deletedThisLife;

        TopicModel(String name) {
            this.name = name;
        }

        void present(UUID id, int partitions, Map<String, String> configs) {
            this.status = TopicStatus.PRESENT;
            this.id = id;
            this.partitions = partitions;
            this.configs.clear();
            this.configs.add(Map.copyOf(configs));
        }

        @Override
        public String toString() {
            return name + "[" + status + (id == null ? "" : " " + id) + " x" + partitions + " " + configs + "]";
        }
    }

    final Map<String, TopicModel> topics = new TreeMap<>();

    TopicModel topic(String name) {
        return topics.computeIfAbsent(name, TopicModel::new);
    }

    // ------------------------------------------------------------------------------------------ batches

    /** One batch a client sent (and possibly re-sent, always with the same bytes), to one topic incarnation. */
    static final class Sent {
        final long id;
        final TopicPartition tp;
        final UUID topicId;
        final long producerId;
        final short producerEpoch;
        final int baseSequence;
        final int records;
        final short acks;
        final Txn txn;
        final byte[] bytes;
        /** The base offset an acks=-1 produce was answered NONE with: durable there from then on. */
        Long ackedOffset;
        /** The base offset any answer NONE named (acks=1 too): if the batch is in the log, it is there. */
        Long answeredOffset;

        Sent(long id, TopicPartition tp, UUID topicId, long producerId, short producerEpoch, int baseSequence,
             int records, short acks, Txn txn, byte[] bytes) {
            this.id = id;
            this.tp = tp;
            this.topicId = topicId;
            this.producerId = producerId;
            this.producerEpoch = producerEpoch;
            this.baseSequence = baseSequence;
            this.records = records;
            this.acks = acks;
            this.txn = txn;
            this.bytes = bytes;
        }

        @Override
        public String toString() {
            return "batch " + id + " to " + tp + " (pid " + producerId + " epoch " + producerEpoch + " seq "
                    + baseSequence + " x" + records + ", acks " + acks + (txn == null ? "" : ", " + txn.name())
                    + (ackedOffset == null ? "" : ", acked at offset " + ackedOffset) + ")";
        }
    }

    final Map<Long, Sent> sent = new HashMap<>();
    private final Map<UUID, Map<Integer, List<Sent>>> byPartition = new HashMap<>();
    private long nextBatchId = 1;

    long nextBatchId() {
        return nextBatchId++;
    }

    void register(Sent s) {
        sent.put(s.id, s);
        byPartition.computeIfAbsent(s.topicId, id -> new HashMap<>()).computeIfAbsent(s.tp.partition(),
                p -> new ArrayList<>()).add(s);
        if (s.txn != null) {
            s.txn.sends.add(s);
        }
    }

    /** The batches sent to one partition of one topic incarnation, in the order they were first sent. */
    List<Sent> sentTo(UUID topicId, int partition) {
        return byPartition.getOrDefault(topicId, Map.of()).getOrDefault(partition, List.of());
    }

    /** The end of the acks=-1 acknowledged batches of a partition incarnation: its high watermark is at least this. */
    long ackedEnd(UUID topicId, int partition) {
        long end = 0;
        for (Sent s : sentTo(topicId, partition)) {
            if (s.ackedOffset != null) {
                end = Math.max(end, s.ackedOffset + s.records);
            }
        }
        return end;
    }

    // ------------------------------------------------------------------------------------------ transactions

    enum Decision {
        /** Not ended by its producer (yet): a coordinator may only ever abort it. */
        OPEN,
        /** EndTxn(commit) sent, not acknowledged: it may end either way. */
        COMMIT_REQUESTED,
        /** EndTxn(commit) answered NONE: committed. */
        COMMIT_ACKED,
        ABORT_REQUESTED,
        ABORT_ACKED;

        boolean mayBeCommitted() {
            return this == COMMIT_REQUESTED || this == COMMIT_ACKED;
        }
    }

    static final class Txn {
        final int number;
        final String transactionalId;
        final long producerId;
        final short producerEpoch;
        Decision decision = Decision.OPEN;
        /** The partitions its producer added (AddPartitionsToTxn). */
        final Set<TopicPartition> partitions = new LinkedHashSet<>();
        final List<Sent> sends = new ArrayList<>();
        /** Offsets its TxnOffsetCommits staged: committed with it, dropped with an abort. */
        final List<Staged> staged = new ArrayList<>();

        Txn(int number, String transactionalId, long producerId, short producerEpoch) {
            this.number = number;
            this.transactionalId = transactionalId;
            this.producerId = producerId;
            this.producerEpoch = producerEpoch;
        }

        String name() {
            return "txn " + number + " of " + transactionalId + " (pid " + producerId + " epoch " + producerEpoch + ")";
        }

        @Override
        public String toString() {
            return name() + " " + decision;
        }
    }

    /** An offset a transaction staged; it becomes an attempt on its key once the commit is requested. */
    static final class Staged {
        final OffsetKey key;
        final Attempt attempt;
        boolean stageAcked;

        Staged(OffsetKey key, Attempt attempt) {
            this.key = key;
            this.attempt = attempt;
        }
    }

    final List<Txn> txns = new ArrayList<>();

    Txn newTxn(String transactionalId, long producerId, short producerEpoch) {
        Txn txn = new Txn(txns.size() + 1, transactionalId, producerId, producerEpoch);
        txns.add(txn);
        return txn;
    }

    /**
     * A TxnOffsetCommit was sent. Its attempt is ordered by when it was staged (as Apache orders a
     * transaction's offsets by the position of its offset-commit record) and only counts once the
     * transaction's commit is requested.
     */
    Staged stage(Txn txn, OffsetKey key, long value) {
        history(key); // known from now on: a deletion of its topic purges what is staged too
        Staged staged = new Staged(key, new Attempt(value, tick(), "staged by " + txn.name()));
        txn.staged.add(staged);
        return staged;
    }

    void endRequested(Txn txn, boolean commit) {
        tick();
        if (commit) {
            if (txn.decision != Decision.COMMIT_REQUESTED) {
                for (Staged s : txn.staged) {
                    history(s.key).add(s.attempt);
                }
            }
            txn.decision = Decision.COMMIT_REQUESTED;
        } else {
            txn.decision = Decision.ABORT_REQUESTED;
        }
    }

    /** EndTxn answered NONE. */
    void endAcked(Txn txn) {
        long at = tick();
        if (txn.decision == Decision.COMMIT_REQUESTED) {
            txn.decision = Decision.COMMIT_ACKED;
            for (Staged s : txn.staged) {
                s.attempt.end(at, s.stageAcked);
            }
        } else if (txn.decision == Decision.ABORT_REQUESTED) {
            txn.decision = Decision.ABORT_ACKED;
        }
    }

    /** EndTxn answered an error after which the producer gives the transaction up: its outcome stays unknown. */
    void endUnknown(Txn txn) {
        long at = tick();
        if (txn.decision == Decision.COMMIT_REQUESTED) {
            for (Staged s : txn.staged) {
                s.attempt.end(at, false);
            }
        }
    }

    // ------------------------------------------------------------------------------------------ offsets

    record OffsetKey(String group, TopicPartition tp) {
        @Override
        public String toString() {
            return group + "/" + tp;
        }
    }

    /**
     * One way a key's committed offset may have been set: a commit (its value), or a topic deletion
     * (ABSENT). {@code ended} is when its answer came, or when its process died without answering.
     */
    static final class Attempt {
        final long value;
        final long requested;
        final String what;
        /** The client connection it was sent on (null: none that orders it), whose requests take effect in order. */
        final String connection;
        long ended = Long.MAX_VALUE;
        boolean acked;
        /**
         * Its topic was deleted while it was in flight: it may land after a re-creation, carrying the old
         * incarnation's id, and then reads as no offset once a restart drops offsets of deleted topics.
         */
        boolean mayReadAsAbsent;

        Attempt(long value, long requested, String what) {
            this(value, requested, what, null);
        }

        Attempt(long value, long requested, String what, String connection) {
            this.value = value;
            this.requested = requested;
            this.what = what;
            this.connection = connection;
        }

        /**
         * Whether {@code later}, acknowledged, must have overwritten this: it was sent after this one was
         * answered, or after it on the same connection (Kafka handles a connection's requests in order).
         */
        boolean supersededBy(Attempt later) {
            return later.acked && (later.requested > ended
                    || connection != null && connection.equals(later.connection) && later.requested > requested);
        }

        void end(long at, boolean ack) {
            if (ended == Long.MAX_VALUE) {
                ended = at;
                acked = ack;
            }
        }

        @Override
        public String toString() {
            return (value == ABSENT ? "absent" : Long.toString(value) + (mayReadAsAbsent ? " or absent" : "")) + " ("
                    + what + ", requested at " + requested
                    + (ended == Long.MAX_VALUE ? ", in flight" : ", " + (acked ? "acknowledged" : "failed") + " at " + ended)
                    + ")";
        }
    }

    private final Map<OffsetKey, List<Attempt>> offsets = new LinkedHashMap<>();
    private long nextOffsetValue = 1;

    long nextOffsetValue() {
        return nextOffsetValue++;
    }

    /** A key's attempts, starting with "absent", acknowledged at the beginning of time. */
    List<Attempt> history(OffsetKey key) {
        return offsets.computeIfAbsent(key, k -> {
            List<Attempt> attempts = new ArrayList<>();
            Attempt initial = new Attempt(ABSENT, 0, "nothing committed yet");
            initial.end(0, true);
            attempts.add(initial);
            return attempts;
        });
    }

    Map<OffsetKey, List<Attempt>> offsetHistories() {
        return offsets;
    }

    Attempt commitRequested(OffsetKey key, long value, String what, String connection) {
        Attempt attempt = new Attempt(value, tick(), what, connection);
        history(key).add(attempt);
        return attempt;
    }

    /** A topic deletion: every committed offset of its partitions may be gone, and is once the deletion is acknowledged. */
    List<Attempt> topicDeletionRequested(String topic, long requestedAt) {
        List<Attempt> attempts = new ArrayList<>();
        for (Map.Entry<OffsetKey, List<Attempt>> e : offsets.entrySet()) {
            if (e.getKey().tp().topic().equals(topic)) {
                for (Attempt inFlight : e.getValue()) {
                    if (inFlight.ended == Long.MAX_VALUE) {
                        inFlight.mayReadAsAbsent = true;
                    }
                }
                Attempt a = new Attempt(ABSENT, requestedAt, "deletion of topic " + topic);
                e.getValue().add(a);
                attempts.add(a);
            }
        }
        return attempts;
    }

    /** Every request still in flight when the process died is answered by nobody: it ends now, unacknowledged. */
    void processDied() {
        long at = tick();
        for (List<Attempt> attempts : offsets.values()) {
            for (Attempt a : attempts) {
                a.end(at, false);
            }
        }
        for (Txn txn : txns) {
            for (Staged s : txn.staged) {
                if (txn.decision == Decision.COMMIT_REQUESTED) {
                    s.attempt.end(at, false);
                }
            }
        }
    }

    /**
     * Whether OffsetFetch may answer {@code observed} for {@code key} now: some attempt set that value
     * and no acknowledged attempt must have overwritten it since (see {@link Attempt#supersededBy}).
     */
    boolean offsetAllowed(OffsetKey key, long observed) {
        List<Attempt> attempts = history(key);
        for (Attempt candidate : attempts) {
            if (candidate.value != observed && !(observed == ABSENT && candidate.mayReadAsAbsent)) {
                continue;
            }
            boolean superseded = false;
            for (Attempt other : attempts) {
                if (candidate.supersededBy(other)) {
                    superseded = true;
                    break;
                }
            }
            if (!superseded) {
                return true;
            }
        }
        return false;
    }

    // ------------------------------------------------------------------------------------------ producer ids

    private final Map<Long, String> producerIdOwners = new HashMap<>();

    /** A producer id handed to {@code owner}; null if fine, else why not (an id is never handed out twice). */
    String producerIdIssued(long producerId, String owner) {
        String previous = producerIdOwners.putIfAbsent(producerId, owner);
        return previous == null || previous.equals(owner) ? null
                : "producer id " + producerId + " handed to " + owner + " was already " + previous + "'s";
    }
}
