package io.kaas.adapter.fs.sim;

import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * A simulated directory: the entries a process sees now, and the entries that survive a crash
 * (those as of the last fsync of this directory). Sorted maps keep listings and every walk over
 * the tree in one order, which the determinism of the simulation depends on.
 */
final class SimDir implements SimNode {
    private TreeMap<String, SimNode> current = new TreeMap<>();
    private TreeMap<String, SimNode> durable = new TreeMap<>();
    private long modifiedMs;

    SimDir(long nowMs) {
        this.modifiedMs = nowMs;
    }

    SimNode get(String name) {
        return current.get(name);
    }

    NavigableMap<String, SimNode> entries() {
        return current;
    }

    void link(String name, SimNode node, long nowMs) {
        current.put(name, node);
        modifiedMs = nowMs;
    }

    void unlink(String name, long nowMs) {
        current.remove(name);
        modifiedMs = nowMs;
    }

    boolean isEmpty() {
        return current.isEmpty();
    }

    /** fsync of the directory: the current names become the ones a crash leaves. */
    void makeDurable() {
        durable = new TreeMap<>(current);
    }

    /** After a crash only the durable names exist. */
    void revertToDurable() {
        current = new TreeMap<>(durable);
    }

    @Override
    public long modifiedMs() {
        return modifiedMs;
    }
}
