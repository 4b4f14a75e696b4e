package io.kaas.bootstrap.logging;

import java.util.Locale;
import java.util.Optional;

/**
 * Log levels, least severe first. FATAL is Apache's highest: SLF4J has no fatal calls, so a logger at
 * FATAL writes nothing, as a log4j logger at FATAL drops SLF4J's errors.
 */
enum Level {
    TRACE, DEBUG, INFO, WARN, ERROR, FATAL;

    /** {@code name} in any case, as the environment variable may give it. */
    static Optional<Level> parse(String name) {
        try {
            return Optional.of(valueOf(name.trim().toUpperCase(Locale.ROOT)));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /** Whether an event at {@code event} passes a logger at this level. */
    boolean admits(Level event) {
        return event.ordinal() >= ordinal();
    }
}
