package io.kaas.application.port.out;

import io.kaas.domain.cluster.Assignment;
import java.util.Optional;

/**
 * {@code __cluster/assignment.json} on the shared volume: the one source of partition leadership.
 * Written only by the controller (temp + fsync + rename, so a reader sees the old file or the new
 * one, never a mix); read by every broker on a push and on a 1 s poll. Whether a broker takes what
 * it read is the {@link io.kaas.domain.cluster.AssignmentFence}'s call, not the store's. Both calls
 * do file I/O: call them from an I/O or control thread.
 */
public interface AssignmentStore {

    /**
     * The assignment on the volume; empty before a controller wrote one.
     *
     * @throws java.io.UncheckedIOException when the file exists but cannot be read or parsed
     */
    Optional<Assignment> read();

    /**
     * Replaces the assignment; durable when it returns.
     *
     * @throws java.io.UncheckedIOException when it could not be made durable
     */
    void write(Assignment assignment);
}
