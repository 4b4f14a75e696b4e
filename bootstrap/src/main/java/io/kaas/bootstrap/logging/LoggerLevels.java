package io.kaas.bootstrap.logging;

import io.kaas.application.port.out.LogLevels;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The levels of every logger of the process: those set explicitly, and each logger's effective
 * one, kept in the logger itself (a volatile read per log call) and recomputed for every logger
 * whenever a level changes, which is rare.
 */
final class LoggerLevels implements LogLevels {
    private final Map<String, KaasLogger> loggers = new ConcurrentHashMap<>();
    /** Levels set explicitly; the root's is always there. */
    private final Map<String, Level> explicit = new ConcurrentHashMap<>();
    private final LineWriter writer;

    LoggerLevels(Level root, LineWriter writer) {
        this.writer = writer;
        explicit.put(ROOT, root);
    }

    KaasLogger logger(String name) {
        KaasLogger logger = loggers.get(name);
        if (logger != null) {
            return logger;
        }
        synchronized (this) { // not while a level change refreshes the loggers: it could miss this one
            return loggers.computeIfAbsent(name, n -> new KaasLogger(n, effective(n), writer));
        }
    }

    /** The level of the nearest of {@code name} and its ancestors ({@code a.b} for {@code a.b.C}) with one. */
    private Level effective(String name) {
        for (String at = name; ; ) {
            Level level = explicit.get(at);
            if (level != null) {
                return level;
            }
            int dot = at.lastIndexOf('.');
            if (dot < 0) {
                return explicit.get(ROOT);
            }
            at = at.substring(0, dot);
        }
    }

    /** Several levels at once, as the environment gives them at start. */
    synchronized void setAll(Map<String, Level> levels) {
        levels.forEach((name, level) -> explicit.put(ROOT.equals(name) ? ROOT : name, level));
        refresh();
    }

    @Override
    public SortedMap<String, String> effectiveLevels() {
        SortedMap<String, String> levels = new TreeMap<>();
        loggers.keySet().forEach(name -> levels.put(name, effective(name).name()));
        explicit.keySet().forEach(name -> levels.put(name, effective(name).name()));
        return levels;
    }

    @Override
    public boolean exists(String logger) {
        return ROOT.equals(logger) || loggers.containsKey(logger) || explicit.containsKey(logger);
    }

    @Override
    public synchronized void set(String logger, String level) {
        explicit.put(logger, Level.parse(level).orElseThrow(() -> new IllegalArgumentException("no level " + level)));
        refresh();
    }

    @Override
    public synchronized void unset(String logger) {
        if (ROOT.equals(logger)) {
            throw new IllegalArgumentException("the root logger always has a level");
        }
        explicit.remove(logger);
        refresh();
    }

    private void refresh() {
        loggers.values().forEach(logger -> logger.level(effective(logger.getName())));
    }
}
