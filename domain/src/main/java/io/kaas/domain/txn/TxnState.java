package io.kaas.domain.txn;

import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/**
 * The states of a transactional id, with the states each may be entered from (Apache's
 * {@code TransactionState}); the display names are what DescribeTransactions and ListTransactions
 * report.
 *
 * <pre>
 *             InitProducerId                  AddPartitionsToTxn / AddOffsetsToTxn
 *   (new) ----------------> EMPTY ----------------------------------------------> ONGOING
 *                           ^  ^                                                  |  |
 *            InitProducerId |  | InitProducerId          EndTxn(commit)           |  | EndTxn(abort), timeout,
 *                           |  +------------- COMPLETE_COMMIT &lt;- PREPARE_COMMIT &lt;-+  | InitProducerId (fence)
 *                           +---------------- COMPLETE_ABORT  &lt;- PREPARE_ABORT  &lt;---+
 *                                  markers durable ^      (Add* from COMPLETE_* starts the next ONGOING)
 *   EMPTY, COMPLETE_* ---- transactional.id.expiration.ms idle ----> DEAD (removed)
 * </pre>
 */
public enum TxnState {
    /** A producer id and epoch are assigned; no transaction has begun. Add* begins one. */
    EMPTY("Empty"),
    /** Partitions or groups were added; data and offsets may be written. EndTxn or the timeout ends it. */
    ONGOING("Ongoing"),
    /** Decided to commit: the partition and group lists are kept until every marker is durable. */
    PREPARE_COMMIT("PrepareCommit"),
    /** Decided to abort (by the client, the timeout, or a rejoining producer's fence). */
    PREPARE_ABORT("PrepareAbort"),
    /** Every COMMIT marker and the staged offsets are durable. Add* begins the next transaction. */
    COMPLETE_COMMIT("CompleteCommit"),
    /** Every ABORT marker is durable and the staged offsets are gone. */
    COMPLETE_ABORT("CompleteAbort"),
    /** Expired after {@code transactional.id.expiration.ms} without use; the entry is removed. */
    DEAD("Dead");

    static {
        EMPTY.predecessors = EnumSet.of(EMPTY, COMPLETE_COMMIT, COMPLETE_ABORT);
        ONGOING.predecessors = EnumSet.of(ONGOING, EMPTY, COMPLETE_COMMIT, COMPLETE_ABORT);
        PREPARE_COMMIT.predecessors = EnumSet.of(ONGOING);
        PREPARE_ABORT.predecessors = EnumSet.of(ONGOING);
        COMPLETE_COMMIT.predecessors = EnumSet.of(PREPARE_COMMIT);
        COMPLETE_ABORT.predecessors = EnumSet.of(PREPARE_ABORT);
        DEAD.predecessors = EnumSet.of(EMPTY, COMPLETE_COMMIT, COMPLETE_ABORT);
    }

    private final String displayName;
    private Set<TxnState> predecessors;

    TxnState(String displayName) {
        this.displayName = displayName;
    }

    /** The name on the wire: {@code Empty}, {@code Ongoing}, … */
    public String displayName() {
        return displayName;
    }

    public boolean canFollow(TxnState from) {
        return predecessors.contains(from);
    }

    /** Prepared: markers are owed to the recorded partitions. */
    public boolean isPrepared() {
        return this == PREPARE_COMMIT || this == PREPARE_ABORT;
    }

    /** Idle states a transactional id may expire from. */
    public boolean expirationAllowed() {
        return this == EMPTY || this == COMPLETE_COMMIT || this == COMPLETE_ABORT;
    }

    /** The state with this display name, if any (ListTransactions filters by name). */
    public static Optional<TxnState> byDisplayName(String name) {
        for (TxnState s : values()) {
            if (s.displayName.equals(name)) {
                return Optional.of(s);
            }
        }
        return Optional.empty();
    }

    @Override
    public String toString() {
        return displayName;
    }
}
