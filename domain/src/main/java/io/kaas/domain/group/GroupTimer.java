package io.kaas.domain.group;

/**
 * A timeout a group asks to be told about (through {@link GroupCommand.FireTimer}). Timers are
 * data: whoever runs the group schedules them. A timer replaces any pending one with the same
 * {@link #key()}.
 */
public sealed interface GroupTimer {

    /** Identifies the timer: scheduling a timer with the same key replaces the pending one. */
    String key();

    /** A member's session: fires if it shows no sign of life (heartbeat, join, sync, commit) in time. */
    record MemberSession(String memberId) implements GroupTimer {
        @Override
        public String key() {
            return "session:" + memberId;
        }
    }

    /** A member id handed out with MEMBER_ID_REQUIRED expires unless the client rejoins with it (KIP-394). */
    record PendingMember(String memberId) implements GroupTimer {
        @Override
        public String key() {
            return "pending:" + memberId;
        }
    }

    /**
     * The end of the join phase. The first rebalance of an empty group waits
     * {@code group.initial.rebalance.delay.ms}, extended while new members keep arriving, for at most
     * the rebalance timeout in total ({@code initial}); any other rebalance ends when every member
     * has rejoined or the rebalance timeout passes.
     *
     * @param delayMs     this step's delay (initial phase only)
     * @param remainingMs what is left of the rebalance timeout after this step (initial phase only)
     */
    record JoinPhase(boolean initial, long delayMs, long remainingMs) implements GroupTimer {
        @Override
        public String key() {
            return "join";
        }
    }

    /** Members of this generation that never send SyncGroup are removed when it fires. */
    record SyncPhase(int generationId) implements GroupTimer {
        @Override
        public String key() {
            return "sync";
        }
    }
}
