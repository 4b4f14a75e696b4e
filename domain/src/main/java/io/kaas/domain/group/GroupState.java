package io.kaas.domain.group;

import java.util.EnumSet;
import java.util.Set;

/**
 * The states of a classic consumer group, with the states each may be entered from. The display
 * names are the ones Apache's DescribeGroups and ListGroups report.
 *
 * <pre>
 *           join (new member)                  all joined / join timer
 *   EMPTY ----------------------> PREPARING -----------------------> COMPLETING
 *     ^  &lt;---- no member left ----  ^  ^                                |
 *     |                           |  +------ join, leave, expiry ------+ leader's SyncGroup
 *     |                           +--------- join, leave, expiry ------ STABLE &lt;--+
 *   any state ---- DeleteGroups (EMPTY only) or unload ----> DEAD
 * </pre>
 */
public enum GroupState {
    /**
     * No members; offsets may still be committed by members of no generation (admin tools,
     * manual-assignment consumers). A join from a new member starts a rebalance.
     */
    EMPTY("Empty"),
    /**
     * Collecting JoinGroups: joins are parked until every known member has rejoined or the join
     * timer fires. Heartbeats and SyncGroups are told REBALANCE_IN_PROGRESS; commits of the
     * previous generation are still accepted.
     */
    PREPARING_REBALANCE("PreparingRebalance"),
    /**
     * A generation exists and its leader is computing the assignment: followers' SyncGroups are
     * parked until the leader's arrives; commits are told REBALANCE_IN_PROGRESS.
     */
    COMPLETING_REBALANCE("CompletingRebalance"),
    /** Every member has its assignment; heartbeats keep the generation alive. */
    STABLE("Stable"),
    /** Deleted or no longer coordinated here; a final state. */
    DEAD("Dead");

    static {
        EMPTY.predecessors = EnumSet.of(PREPARING_REBALANCE);
        PREPARING_REBALANCE.predecessors = EnumSet.of(EMPTY, COMPLETING_REBALANCE, STABLE);
        COMPLETING_REBALANCE.predecessors = EnumSet.of(PREPARING_REBALANCE);
        STABLE.predecessors = EnumSet.of(COMPLETING_REBALANCE);
        DEAD.predecessors = EnumSet.allOf(GroupState.class);
    }

    private final String displayName;
    private Set<GroupState> predecessors;

    GroupState(String displayName) {
        this.displayName = displayName;
    }

    /** The name on the wire: {@code Empty}, {@code PreparingRebalance}, … */
    public String displayName() {
        return displayName;
    }

    /** Whether a group in {@code from} may move to this state. */
    public boolean canFollow(GroupState from) {
        return predecessors.contains(from);
    }

    @Override
    public String toString() {
        return displayName;
    }
}
