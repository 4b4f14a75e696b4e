package io.kaas.adapter.fs.sim;

import java.util.Random;

/**
 * A simulated file's inode: the bytes a process reads now, and the bytes that survive a crash
 * (those as of the last fsync). Only the range that changed since the last fsync is copied on the
 * next one, so a long append-only segment with many group commits stays cheap to simulate.
 */
final class SimFile implements SimNode {
    /** Crash damage is modelled per page, the unit in which a page cache writes back. */
    static final int PAGE_SIZE = 4096;

    private final Content current = new Content();
    private final Content durable = new Content();
    /** Lowest position at which current may differ from durable; MAX_VALUE when they are equal. */
    private int dirtyFrom = Integer.MAX_VALUE;
    private long modifiedMs;

    SimFile(long nowMs) {
        this.modifiedMs = nowMs;
    }

    int length() {
        return current.length();
    }

    /** Writes {@code count} bytes at {@code position}; the caller checked the file may grow that far. */
    void write(int position, byte[] src, int count, long nowMs) {
        int end = position + count;
        if (end > current.length()) {
            // Growing past the end (possibly leaving a hole of zeros) changes everything from the old end.
            markDirty(current.length());
            current.setLength(end);
        }
        current.put(position, src, 0, count);
        markDirty(position);
        modifiedMs = nowMs;
    }

    /** Reads up to {@code count} bytes at {@code position} (which is below the length) into dst; the count read. */
    int read(int position, byte[] dst, int count) {
        int n = Math.min(count, current.length() - position);
        current.get(position, dst, 0, n);
        return n;
    }

    /** Shrinks the file; like {@code FileChannel.truncate}, a larger size leaves it unchanged. */
    void truncate(int size, long nowMs) {
        if (size < current.length()) {
            current.setLength(size);
            markDirty(size);
            modifiedMs = nowMs;
        }
    }

    /** fsync: the current bytes become the ones a crash leaves. */
    void makeDurable() {
        int length = current.length();
        durable.setLength(length);
        durable.copyRange(current, Math.min(dirtyFrom, length), length);
        dirtyFrom = Integer.MAX_VALUE;
    }

    /**
     * What a crash leaves: the durable bytes, plus, with torn writes, a random-length prefix of the
     * un-fsynced tail beyond the durable length, whose last page may end in garbage. Overwrites of
     * already durable bytes never survive, and durable bytes are never damaged.
     */
    void crash(Random random, SimOptions options) {
        int durableLength = durable.length();
        int tail = current.length() - durableLength;
        if (options.tornWrites() && tail > 0) {
            int survivors = random.nextInt(tail + 1);
            int end = durableLength + survivors;
            durable.setLength(end);
            durable.copyRange(current, durableLength, end);
            if (options.garbledTornPage() && survivors > 0) {
                garbleLastPage(random, durableLength, end);
            }
        }
        int length = durable.length();
        int unchangedBelow = Math.min(Math.min(dirtyFrom, durableLength), current.length());
        current.setLength(length);
        current.copyRange(durable, unchangedBelow, length);
        dirtyFrom = Integer.MAX_VALUE;
    }

    private void garbleLastPage(Random random, int durableLength, int end) {
        int pageStart = Math.max(durableLength, (end - 1) / PAGE_SIZE * PAGE_SIZE);
        int from = pageStart + random.nextInt(end - pageStart);
        byte[] noise = new byte[end - from];
        random.nextBytes(noise);
        durable.put(from, noise, 0, noise.length);
    }

    byte[] currentBytes() {
        return current.toByteArray();
    }

    private void markDirty(int position) {
        dirtyFrom = Math.min(dirtyFrom, position);
    }

    @Override
    public long modifiedMs() {
        return modifiedMs;
    }
}
