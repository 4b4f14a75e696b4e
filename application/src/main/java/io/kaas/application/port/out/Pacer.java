package io.kaas.application.port.out;

/**
 * Holds background I/O to a rate ({@code log.cleaner.io.max.bytes.per.second}): the log cleaner
 * asks before every chunk it reads or writes, and is made to wait while it is ahead of the rate.
 */
@FunctionalInterface
public interface Pacer {
    /** No limit. */
    Pacer UNLIMITED = bytes -> { };

    /** Accounts for {@code bytes} of I/O, waiting first while the rate is exceeded. */
    void pace(long bytes) throws InterruptedException;
}
