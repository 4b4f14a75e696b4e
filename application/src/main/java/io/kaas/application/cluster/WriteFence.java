package io.kaas.application.cluster;

/**
 * Asked by Produce before anything is appended: whether this broker must refuse writes it would
 * otherwise lead (NOT_LEADER_OR_FOLLOWER, so clients refresh metadata and follow the move). Cheap
 * and non-blocking: called on event loops for every produced partition.
 */
@FunctionalInterface
public interface WriteFence {

    /** A standalone broker answers to no controller: never fenced. */
    WriteFence OPEN = () -> false;

    boolean fenced();
}
