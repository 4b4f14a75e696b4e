package io.kaas.adapter.fs.sim;

import java.util.Arrays;

/** A growable byte array: one version (current or durable) of a simulated file's bytes. */
final class Content {
    /** The largest array the JVM reliably allocates; a simulated file cannot grow beyond it. */
    static final int MAX_LENGTH = Integer.MAX_VALUE - 8;

    private byte[] bytes = new byte[0];
    private int length;

    int length() {
        return length;
    }

    /** Shrinks, or grows with zeros (as a hole in a sparse file reads). */
    void setLength(int newLength) {
        if (newLength > bytes.length) {
            // Doubling keeps appends to a growing segment amortized O(1).
            long grown = Math.max(newLength, 2L * bytes.length);
            bytes = Arrays.copyOf(bytes, (int) Math.min(grown, MAX_LENGTH));
        }
        if (newLength > length) {
            // After a shrink the buffer still holds the old bytes; a regrown region must read as zeros.
            Arrays.fill(bytes, length, newLength, (byte) 0);
        }
        length = newLength;
    }

    void put(int position, byte[] src, int offset, int count) {
        System.arraycopy(src, offset, bytes, position, count);
    }

    /** Copies {@code count} bytes from {@code position} into {@code dst} at {@code offset}. */
    void get(int position, byte[] dst, int offset, int count) {
        System.arraycopy(bytes, position, dst, offset, count);
    }

    /** Copies {@code from}'s bytes in [start, end) over this content's; both must be at least {@code end} long. */
    void copyRange(Content from, int start, int end) {
        if (start < end) {
            System.arraycopy(from.bytes, start, bytes, start, end - start);
        }
    }

    byte[] toByteArray() {
        return Arrays.copyOf(bytes, length);
    }
}
