package io.kaas.adapter.fs.sim;

import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;

/** The simulated directory tree, walked by absolute normalized paths. Guarded by the filesystem's lock. */
final class Namespace {
    /** Roots always exist and are durable: a crash cannot lose "/". */
    private final TreeMap<Path, SimDir> roots = new TreeMap<>();

    /** The key a path is known by: absolute (resolved lexically, never against the real disk) and normalized. */
    static Path key(Path path) {
        return path.toAbsolutePath().normalize();
    }

    static String name(Path key) {
        return key.getFileName().toString();
    }

    /** The node at {@code key}, or null if some component is missing or is not a directory. */
    SimNode find(Path key) {
        SimNode node = roots.computeIfAbsent(key.getRoot(), root -> new SimDir(0));
        for (Path component : key) {
            if (!(node instanceof SimDir dir)) {
                return null;
            }
            node = dir.get(component.toString());
            if (node == null) {
                return null;
            }
        }
        return node;
    }

    /** The directory at {@code key}, failing as the OS would if it is missing or a file. */
    SimDir directory(Path key) throws FileSystemException {
        SimNode node = find(key);
        if (node == null) {
            throw new NoSuchFileException(key.toString());
        }
        if (node instanceof SimDir dir) {
            return dir;
        }
        throw new NotDirectoryException(key.toString());
    }

    /** The directory holding {@code key}'s entry. */
    SimDir parent(Path key) throws FileSystemException {
        if (key.getParent() == null) {
            throw new FileSystemException(key.toString(), null, "is a filesystem root");
        }
        return directory(key.getParent());
    }

    /** Every file a current name leads to. Identity, not equality: an inode is counted once. */
    Set<SimFile> files() {
        Set<SimFile> files = Collections.newSetFromMap(new IdentityHashMap<>());
        Set<SimDir> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        roots.values().forEach(root -> collectFiles(root, files, seen));
        return files;
    }

    private static void collectFiles(SimDir dir, Set<SimFile> files, Set<SimDir> seen) {
        if (!seen.add(dir)) {
            return;
        }
        for (SimNode child : dir.entries().values()) {
            if (child instanceof SimDir childDir) {
                collectFiles(childDir, files, seen);
            } else {
                files.add((SimFile) child);
            }
        }
    }

    /**
     * Reverts every directory reachable through durable names to its durable entries, and each
     * file so reached to what its durable bytes (and torn writes) leave. Anything else is gone.
     * The walk goes in sorted order so the random draws, and so the outcome, follow from the seed.
     */
    void crash(Random random, SimOptions options) {
        Set<SimNode> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        roots.values().forEach(root -> revert(root, random, options, seen));
    }

    private static void revert(SimDir dir, Random random, SimOptions options, Set<SimNode> seen) {
        if (!seen.add(dir)) {
            return; // a directory durably named twice (a half-durable move) is reverted once
        }
        dir.revertToDurable();
        for (SimNode child : dir.entries().values()) {
            if (child instanceof SimDir childDir) {
                revert(childDir, random, options, seen);
            } else if (seen.add(child)) {
                ((SimFile) child).crash(random, options);
            }
        }
    }
}
