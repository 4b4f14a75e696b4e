package io.kaas.domain.cluster;

/**
 * Whether a broker takes an assignment it read: never one written by a controller older than the
 * newest it knows of (a deposed controller back from a GC pause, or cut off from the API server,
 * cannot roll the cluster back), never one that is not newer than the one it serves.
 */
public final class AssignmentFence {

    public enum Verdict {
        ACCEPT,
        /** Written under an older Lease epoch than one this broker has seen. */
        STALE_CONTROLLER,
        /** The one the broker serves, or an older one of the same controller. */
        NOT_NEWER
    }

    private AssignmentFence() {
    }

    /**
     * @param current        the assignment the broker serves; null before its first
     * @param leaseEpochSeen the highest {@code leaseTransitions} the broker has seen (0 when none)
     */
    public static Verdict check(Assignment current, Assignment candidate, long leaseEpochSeen) {
        long newestEpoch = Math.max(leaseEpochSeen, current == null ? 0 : current.controllerEpoch());
        if (candidate.controllerEpoch() < newestEpoch) {
            return Verdict.STALE_CONTROLLER;
        }
        if (current != null && !candidate.isNewerThan(current)) {
            return Verdict.NOT_NEWER;
        }
        return Verdict.ACCEPT;
    }
}
