package io.kaas.application.txn;

import java.util.concurrent.CompletableFuture;

/**
 * Ends the offsets transactions staged in groups coordinated here, through the group coordinator
 * the composition root binds once both coordinators exist.
 */
final class StagedOffsets {
    private volatile TransactionCoordinatorService.OffsetHook hook =
            (group, pid, commit) -> CompletableFuture.completedFuture(null);

    void bind(TransactionCoordinatorService.OffsetHook hook) {
        this.hook = hook;
    }

    /** Commits or drops what producer {@code producerId} staged in {@code group}, durably. */
    CompletableFuture<Void> complete(String group, long producerId, boolean commit) {
        return hook.complete(group, producerId, commit);
    }
}
