package io.kaas.application.port.out;

import java.util.List;

/**
 * The cross-broker fence log, {@code __cluster/producer_fences/from-<broker>.json}: each broker
 * records there the epoch bumps its transaction coordinator hands out, and every broker applies
 * its peers' records to the partitions it leads, so a zombie producer is refused even where the
 * new session has not written yet. One writer per file. Every method may block on I/O.
 */
public interface ProducerFenceLog {

    /** Records a bump in this broker's file, durably, keeping only the newest epoch per producer. */
    void append(Fence fence);

    /** What {@code brokerId} recorded; empty when it recorded nothing. */
    List<Fence> read(int brokerId);

    /** Drops this broker's records older than {@code beforeMs} (their producers have expired everywhere). */
    void prune(long beforeMs);

    /** A producer id now at {@code producerEpoch}: older epochs are fenced. */
    record Fence(long producerId, short producerEpoch, long atMs) {
    }
}
