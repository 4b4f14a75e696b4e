package io.kaas.application.port.out;

import java.util.SortedMap;

/**
 * The broker's log levels, changed while it runs (Apache's BROKER_LOGGER resource): loggers are
 * named as in the code ({@code io.kaas.adapter.wire.dispatch.KafkaApiDispatcher}), a logger without
 * a level of its own takes its nearest ancestor's, and {@link #ROOT} is every logger's ancestor.
 * Levels are {@code TRACE}, {@code DEBUG}, {@code INFO}, {@code WARN}, {@code ERROR} and {@code FATAL}.
 */
public interface LogLevels {
    /** The root logger's name, as Apache's Log4jController names it. */
    String ROOT = "root";

    /** Every logger the backend knows (the root, those created and those given a level), with its effective level. */
    SortedMap<String, String> effectiveLevels();

    /** Whether {@code logger} is one of {@link #effectiveLevels()}. */
    boolean exists(String logger);

    /** Gives {@code logger} (and the descendants without a level of their own) {@code level}. */
    void set(String logger, String level);

    /** Takes {@code logger}'s own level away: it follows its ancestors again. Not for the root. */
    void unset(String logger);
}
