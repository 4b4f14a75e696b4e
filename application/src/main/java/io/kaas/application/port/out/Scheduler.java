package io.kaas.application.port.out;

/** Runs delayed work (timeouts, periodic sweeps) off the caller's thread; tests fire it by hand. */
public interface Scheduler {
    /** Runs {@code task} once after {@code delayMs}; the handle cancels it if it has not run yet. */
    Cancellable schedule(Runnable task, long delayMs);

    /** A scheduled task that can still be called off. */
    interface Cancellable {
        void cancel();
    }
}
