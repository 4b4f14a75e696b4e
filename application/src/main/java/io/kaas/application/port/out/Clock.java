package io.kaas.application.port.out;

/** Wall-clock time for the use cases; tests drive a manual one. */
public interface Clock {
    /** Milliseconds since the epoch. */
    long nowMs();
}
