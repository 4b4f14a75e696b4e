package io.kaas.bootstrap.logging;

import org.slf4j.Marker;
import org.slf4j.helpers.LegacyAbstractLogger;
import org.slf4j.helpers.MessageFormatter;

/** One named logger: its effective level (see {@link LoggerLevels}) decides, the {@link LineWriter} writes. */
final class KaasLogger extends LegacyAbstractLogger {
    private static final long serialVersionUID = 1L;

    private final transient LineWriter writer;
    private volatile Level level;

    KaasLogger(String name, Level level, LineWriter writer) {
        this.name = name;
        this.level = level;
        this.writer = writer;
    }

    void level(Level level) {
        this.level = level;
    }

    @Override
    public boolean isTraceEnabled() {
        return level.admits(Level.TRACE);
    }

    @Override
    public boolean isDebugEnabled() {
        return level.admits(Level.DEBUG);
    }

    @Override
    public boolean isInfoEnabled() {
        return level.admits(Level.INFO);
    }

    @Override
    public boolean isWarnEnabled() {
        return level.admits(Level.WARN);
    }

    @Override
    public boolean isErrorEnabled() {
        return level.admits(Level.ERROR);
    }

    @Override
    protected String getFullyQualifiedCallerName() {
        return null;
    }

    @Override
    protected void handleNormalizedLoggingCall(org.slf4j.event.Level event, Marker marker, String pattern,
                                               Object[] arguments, Throwable error) {
        writer.write(Level.valueOf(event.name()), name, MessageFormatter.basicArrayFormat(pattern, arguments), error);
    }
}
