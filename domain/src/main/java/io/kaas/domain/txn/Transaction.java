package io.kaas.domain.txn;

import io.kaas.domain.error.KafkaError;
import io.kaas.domain.topic.TopicPartition;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The state of one transactional id, as Apache's {@code TransactionMetadata} keeps it, with its
 * state machine: Apache 3.7's transitions and error codes (KIP-98, KIP-360 epoch validation and
 * producer-id rotation, the fence of an Ongoing transaction on a rejoin, the timeout abort).
 *
 * <p>Immutable and deterministic: {@link #handle} takes the time and returns the response, the
 * events and the resulting transaction; {@link #apply} is the only way to a changed transaction,
 * so a slot file of snapshots and live handling share one path. The caller persists
 * {@link TxnResult#next()} before answering and serialises commands per transactional id.
 *
 * @param producerId        the producer id in use
 * @param lastProducerId    the producer id before the last transition (differs after a rotation)
 * @param producerEpoch     the epoch in use; -1 before the first InitProducerId completed
 * @param lastProducerEpoch the epoch before the last bump when the caller named it (KIP-360), else -1
 * @param timeoutMs         the producer's {@code transaction.timeout.ms}
 * @param partitions        the partitions of the transaction in progress (kept while prepared: the markers owed)
 * @param groups            the consumer groups whose offsets the transaction commits
 * @param startMs           when the transaction in progress began (first Add*), -1 when none
 * @param lastUpdateMs      when the entry last changed, for expiry
 */
public record Transaction(String transactionalId, long producerId, long lastProducerId, short producerEpoch,
                          short lastProducerEpoch, int timeoutMs, TxnState state, List<TopicPartition> partitions,
                          List<String> groups, long startMs, long lastUpdateMs) {
    public static final long NO_PRODUCER_ID = -1L;
    public static final short NO_PRODUCER_EPOCH = -1;
    private static final Comparator<TopicPartition> PARTITION_ORDER =
            Comparator.comparing(TopicPartition::topic).thenComparingInt(TopicPartition::partition);

    public Transaction {
        partitions = sorted(partitions);
        groups = List.copyOf(new TreeSet<>(groups));
    }

    /**
     * The entry a first InitProducerId creates: a fresh producer id with no epoch yet, Empty. It
     * exists only once that InitProducerId's result is persisted.
     */
    public static Transaction create(String transactionalId, long producerId, int timeoutMs, long nowMs) {
        return new Transaction(transactionalId, producerId, NO_PRODUCER_ID, NO_PRODUCER_EPOCH, NO_PRODUCER_EPOCH,
                timeoutMs, TxnState.EMPTY, List.of(), List.of(), -1L, nowMs);
    }

    /** Whether a transaction timeout is acceptable: positive and at most {@code transaction.max.timeout.ms}. */
    public static boolean isValidTimeout(int timeoutMs, long maxTimeoutMs) {
        return timeoutMs > 0 && timeoutMs <= maxTimeoutMs;
    }

    /**
     * Apache keeps the last two epochs for fencing: an epoch at {@code Short.MAX_VALUE - 1} or above
     * cannot be handed out, so the coordinator can always bump once more to fence.
     */
    public static boolean isEpochExhausted(short epoch) {
        return epoch >= Short.MAX_VALUE - 1;
    }

    // ----------------------------------------------------------------------------------- handling

    /** Handles one command at {@code nowMs}; see {@link TxnCommand} for what each does. */
    @SuppressWarnings("unchecked")
    public <R> TxnResult<R> handle(TxnCommand<R> command, long nowMs) {
        List<TxnEvent> events = new ArrayList<>();
        Object response;
        if (command instanceof TxnCommand.InitProducerId init) {
            response = initProducerId(init, nowMs, events);
        } else if (command instanceof TxnCommand.AddPartitions add) {
            response = enlist(add.producerId(), add.producerEpoch(), Set.copyOf(add.partitions()), Set.of(), nowMs, events);
        } else if (command instanceof TxnCommand.AddGroup add) {
            response = enlist(add.producerId(), add.producerEpoch(), Set.of(), Set.of(add.groupId()), nowMs, events);
        } else if (command instanceof TxnCommand.EndTxn end) {
            response = endTxn(end, nowMs, events);
        } else if (command instanceof TxnCommand.CompleteEnd) {
            response = completeEnd(nowMs, events);
        } else if (command instanceof TxnCommand.AbortIfTimedOut) {
            response = abortIfTimedOut(nowMs, events);
        } else if (command instanceof TxnCommand.ExpireIfIdle expire) {
            response = expireIfIdle(expire.expirationMs(), nowMs, events);
        } else {
            throw new IllegalArgumentException("unknown command " + command);
        }
        Transaction next = this;
        for (TxnEvent e : events) {
            next = next.apply(e);
        }
        return new TxnResult<>((R) response, events, next);
    }

    private InitResult initProducerId(TxnCommand.InitProducerId init, long nowMs, List<TxnEvent> events) {
        ProducerIdAndEpoch expected = init.expected();
        if (expected != null && !isExpectedProducer(expected)) {
            return InitResult.failed(KafkaError.PRODUCER_FENCED);
        }
        switch (state) {
            case PREPARE_COMMIT, PREPARE_ABORT -> {
                return InitResult.failed(KafkaError.CONCURRENT_TRANSACTIONS); // the client backs off and retries
            }
            case ONGOING -> {
                // Abort the transaction in progress under a bumped epoch first (Apache's PrepareEpochFence);
                // that epoch is never handed out: the retry after the abort bumps once more.
                events.add(new TxnEvent.EndPrepared(false, (short) (producerEpoch + 1), NO_PRODUCER_EPOCH, nowMs));
                return InitResult.aborting();
            }
            case EMPTY, COMPLETE_COMMIT, COMPLETE_ABORT -> {
                if (isEpochExhausted(producerEpoch) && (expected == null || expected.epoch() == producerEpoch)) {
                    if (init.freshProducerId() < 0) {
                        return InitResult.needsProducerId();
                    }
                    events.add(new TxnEvent.ProducerIdAssigned(init.freshProducerId(), producerId, (short) 0,
                            expected != null ? producerEpoch : NO_PRODUCER_EPOCH, init.timeoutMs(), nowMs));
                    return InitResult.ok(init.freshProducerId(), (short) 0);
                }
                short bumped = (short) (producerEpoch + 1);
                short next;
                short last;
                if (expected == null) {
                    next = bumped;
                    last = NO_PRODUCER_EPOCH;
                } else if (producerEpoch == NO_PRODUCER_EPOCH || expected.epoch() == producerEpoch) {
                    next = bumped;
                    last = producerEpoch;
                } else if (expected.epoch() == lastProducerEpoch) {
                    next = producerEpoch; // a retry of a bump whose answer the producer never got
                    last = lastProducerEpoch;
                } else {
                    return InitResult.failed(KafkaError.PRODUCER_FENCED);
                }
                events.add(new TxnEvent.ProducerIdAssigned(producerId, producerId, next, last, init.timeoutMs(), nowMs));
                return InitResult.ok(producerId, next);
            }
            default -> throw new IllegalStateException(transactionalId + " is " + state);
        }
    }

    /**
     * KIP-360: a caller naming its producer id and epoch is fenced unless the entry has no epoch
     * yet, the id is the current one (the epoch is checked by the bump), or it is the previous id
     * with its epochs exhausted (a retry after a rotation it never heard of).
     */
    private boolean isExpectedProducer(ProducerIdAndEpoch expected) {
        return producerEpoch == NO_PRODUCER_EPOCH || expected.producerId() == producerId
                || expected.producerId() == lastProducerId && isEpochExhausted(expected.epoch());
    }

    private KafkaError enlist(long pid, short epoch, Set<TopicPartition> addPartitions, Set<String> addGroups, long nowMs,
                              List<TxnEvent> events) {
        KafkaError invalid = checkProducer(pid, epoch);
        if (invalid != KafkaError.NONE) {
            return invalid;
        }
        if (state.isPrepared()) {
            return KafkaError.CONCURRENT_TRANSACTIONS;
        }
        if (state == TxnState.ONGOING && partitions.containsAll(addPartitions) && groups.containsAll(addGroups)) {
            return KafkaError.NONE; // nothing new: nothing to write
        }
        long start = state == TxnState.ONGOING ? startMs : nowMs;
        events.add(new TxnEvent.Enlisted(addPartitions, addGroups, start, nowMs));
        return KafkaError.NONE;
    }

    private EndResult endTxn(TxnCommand.EndTxn end, long nowMs, List<TxnEvent> events) {
        if (end.producerId() != producerId) {
            return EndResult.failed(KafkaError.INVALID_PRODUCER_ID_MAPPING);
        }
        // Clients must use the current epoch; the coordinator's own aborts may carry a newer (fencing) one.
        if (end.fromClient() && end.producerEpoch() != producerEpoch || end.producerEpoch() < producerEpoch) {
            return EndResult.failed(KafkaError.PRODUCER_FENCED);
        }
        return switch (state) {
            case ONGOING -> {
                events.add(new TxnEvent.EndPrepared(end.commit(), end.producerEpoch(),
                        end.producerEpoch() == producerEpoch ? lastProducerEpoch : NO_PRODUCER_EPOCH, nowMs));
                yield EndResult.AWAIT;
            }
            case COMPLETE_COMMIT -> end.commit() ? EndResult.DONE : EndResult.failed(KafkaError.INVALID_TXN_STATE);
            case COMPLETE_ABORT -> end.commit() ? EndResult.failed(KafkaError.INVALID_TXN_STATE) : EndResult.DONE;
            // A retry while the markers are still being placed waits for them (Apache answers CONCURRENT_TRANSACTIONS,
            // which the client retries until the same outcome).
            case PREPARE_COMMIT -> end.commit() ? EndResult.AWAIT : EndResult.failed(KafkaError.INVALID_TXN_STATE);
            case PREPARE_ABORT -> end.commit() ? EndResult.failed(KafkaError.INVALID_TXN_STATE) : EndResult.AWAIT;
            case EMPTY -> EndResult.failed(KafkaError.INVALID_TXN_STATE);
            default -> throw new IllegalStateException(transactionalId + " is " + state);
        };
    }

    private KafkaError completeEnd(long nowMs, List<TxnEvent> events) {
        if (!state.isPrepared()) {
            return KafkaError.INVALID_TXN_STATE;
        }
        events.add(new TxnEvent.EndCompleted(nowMs));
        return KafkaError.NONE;
    }

    private Boolean abortIfTimedOut(long nowMs, List<TxnEvent> events) {
        if (state != TxnState.ONGOING || startMs + timeoutMs >= nowMs || producerEpoch == Short.MAX_VALUE) {
            return false;
        }
        events.add(new TxnEvent.EndPrepared(false, (short) (producerEpoch + 1), NO_PRODUCER_EPOCH, nowMs));
        return true;
    }

    private Boolean expireIfIdle(long expirationMs, long nowMs, List<TxnEvent> events) {
        if (!state.expirationAllowed() || lastUpdateMs + expirationMs > nowMs) {
            return false;
        }
        events.add(new TxnEvent.Expired(nowMs));
        return true;
    }

    private KafkaError checkProducer(long pid, short epoch) {
        if (pid != producerId) {
            return KafkaError.INVALID_PRODUCER_ID_MAPPING;
        }
        if (epoch != producerEpoch) {
            return KafkaError.PRODUCER_FENCED;
        }
        return KafkaError.NONE;
    }

    // ----------------------------------------------------------------------------------- queries

    /**
     * KIP-890 verification: is each partition part of this producer's transaction in progress?
     * (Apache's {@code handleVerifyPartitionsInTransaction}.)
     */
    public Map<TopicPartition, KafkaError> verify(long pid, short epoch, Set<TopicPartition> asked) {
        KafkaError invalid = checkProducer(pid, epoch);
        if (invalid == KafkaError.NONE && state.isPrepared()) {
            invalid = KafkaError.CONCURRENT_TRANSACTIONS;
        }
        Map<TopicPartition, KafkaError> result = new LinkedHashMap<>();
        for (TopicPartition tp : asked) {
            result.put(tp, invalid != KafkaError.NONE ? invalid
                    : partitions.contains(tp) ? KafkaError.NONE : KafkaError.INVALID_TXN_STATE);
        }
        return result;
    }

    /** The same for a group's offsets (TxnOffsetCommit): was the group added to the transaction in progress? */
    public KafkaError verifyGroup(long pid, short epoch, String groupId) {
        KafkaError invalid = checkProducer(pid, epoch);
        if (invalid != KafkaError.NONE) {
            return invalid;
        }
        if (state.isPrepared()) {
            return KafkaError.CONCURRENT_TRANSACTIONS;
        }
        return state == TxnState.ONGOING && groups.contains(groupId) ? KafkaError.NONE : KafkaError.INVALID_TXN_STATE;
    }

    // ----------------------------------------------------------------------------------- apply

    /** Applies one event: the only way to a changed transaction. */
    public Transaction apply(TxnEvent event) {
        if (event instanceof TxnEvent.ProducerIdAssigned assigned) {
            return to(TxnState.EMPTY, assigned.producerId(), assigned.lastProducerId(), assigned.producerEpoch(),
                    assigned.lastProducerEpoch(), assigned.timeoutMs(), List.of(), List.of(), -1L, assigned.atMs());
        }
        if (event instanceof TxnEvent.Enlisted enlisted) {
            List<TopicPartition> allPartitions = new ArrayList<>(partitions);
            allPartitions.addAll(enlisted.partitions());
            List<String> allGroups = new ArrayList<>(groups);
            allGroups.addAll(enlisted.groups());
            return to(TxnState.ONGOING, producerId, lastProducerId, producerEpoch, lastProducerEpoch, timeoutMs,
                    allPartitions, allGroups, enlisted.startMs(), enlisted.atMs());
        }
        if (event instanceof TxnEvent.EndPrepared prepared) {
            return to(prepared.commit() ? TxnState.PREPARE_COMMIT : TxnState.PREPARE_ABORT, producerId, lastProducerId,
                    prepared.producerEpoch(), prepared.lastProducerEpoch(), timeoutMs, partitions, groups, startMs,
                    prepared.atMs());
        }
        if (event instanceof TxnEvent.EndCompleted completed) {
            return to(state == TxnState.PREPARE_COMMIT ? TxnState.COMPLETE_COMMIT : TxnState.COMPLETE_ABORT, producerId,
                    lastProducerId, producerEpoch, lastProducerEpoch, timeoutMs, List.of(), List.of(), startMs,
                    completed.atMs());
        }
        if (event instanceof TxnEvent.Expired expired) {
            return to(TxnState.DEAD, producerId, lastProducerId, producerEpoch, lastProducerEpoch, timeoutMs, List.of(),
                    List.of(), startMs, expired.atMs());
        }
        throw new IllegalArgumentException("unknown event " + event);
    }

    private Transaction to(TxnState next, long pid, long lastPid, short epoch, short lastEpoch, int timeout,
                           List<TopicPartition> newPartitions, List<String> newGroups, long start, long atMs) {
        if (!next.canFollow(state)) {
            throw new IllegalStateException("transactional id " + transactionalId + " cannot move from " + state
                    + " to " + next);
        }
        return new Transaction(transactionalId, pid, lastPid, epoch, lastEpoch, timeout, next, newPartitions, newGroups,
                start, atMs);
    }

    private static List<TopicPartition> sorted(List<TopicPartition> partitions) {
        TreeSet<TopicPartition> set = new TreeSet<>(PARTITION_ORDER);
        set.addAll(partitions);
        return List.copyOf(set);
    }
}
