package io.kaas.application.log;

import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The broker's log dirs (Apache's {@code log.dirs}, the book's volume pool): named roots, each holding whole
 * partitions under {@code <root>/<topic>/<partition>/}. The data directory is always a member, named
 * {@value #DEFAULT}, and comes first. DescribeLogDirs and AlterReplicaLogDirs name a dir by its absolute path.
 */
public final class LogDirectories {
    /** The data directory's name as a log dir. */
    public static final String DEFAULT = "default";

    private final Map<String, Path> roots;

    private LogDirectories(Map<String, Path> roots) {
        this.roots = roots;
    }

    /** The data directory alone. */
    public static LogDirectories single(Path dataDir) {
        return of(dataDir, Map.of());
    }

    /**
     * @param pool the other members by name, in configuration order; none may be named {@value #DEFAULT}
     */
    public static LogDirectories of(Path dataDir, Map<String, Path> pool) {
        Map<String, Path> roots = new LinkedHashMap<>();
        roots.put(DEFAULT, dataDir.toAbsolutePath().normalize());
        pool.forEach((name, root) -> {
            if (roots.put(name, root.toAbsolutePath().normalize()) != null) {
                throw new IllegalArgumentException("log dir " + name + " is named twice");
            }
        });
        return new LogDirectories(Collections.unmodifiableMap(roots));
    }

    /** The members' names, {@value #DEFAULT} first, then in configuration order. */
    public List<String> names() {
        return List.copyOf(roots.keySet());
    }

    public boolean contains(String name) {
        return roots.containsKey(name);
    }

    /** The data directory's root. */
    public Path defaultRoot() {
        return roots.get(DEFAULT);
    }

    /** A member's root directory. */
    public Path root(String name) {
        Path root = roots.get(name);
        if (root == null) {
            throw new IllegalArgumentException("no log dir is named " + name);
        }
        return root;
    }

    /** What DescribeLogDirs calls a member: its root's absolute path. */
    public String path(String name) {
        return root(name).toString();
    }

    /** The member whose root is {@code path} (as DescribeLogDirs reports it), if any. */
    public Optional<String> named(String path) {
        Path wanted;
        try {
            wanted = Path.of(path).toAbsolutePath().normalize();
        } catch (RuntimeException e) {
            return Optional.empty(); // not a path on this system: no member's
        }
        return roots.entrySet().stream().filter(e -> e.getValue().equals(wanted)).map(Map.Entry::getKey).findFirst();
    }
}
