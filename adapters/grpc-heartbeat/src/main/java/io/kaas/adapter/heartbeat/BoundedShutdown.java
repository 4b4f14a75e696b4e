package io.kaas.adapter.heartbeat;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Stops a gRPC server or channel within a bound: orderly first, then forced. Closing the transport
 * must not hang on a peer that never answers.
 */
final class BoundedShutdown {

    /** {@code awaitTermination} of a gRPC server or channel. */
    @FunctionalInterface
    interface Termination {
        boolean await(long timeout, TimeUnit unit) throws InterruptedException;
    }

    private BoundedShutdown() {
    }

    /**
     * Runs {@code orderly}, waits up to {@code grace} for termination, then runs {@code forced} and
     * waits up to {@code grace} once more.
     *
     * @return whether it terminated
     */
    static boolean stop(Runnable orderly, Runnable forced, Termination termination, Duration grace) {
        orderly.run();
        try {
            if (termination.await(grace.toMillis(), TimeUnit.MILLISECONDS)) {
                return true;
            }
            forced.run();
            return termination.await(grace.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            forced.run();
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
