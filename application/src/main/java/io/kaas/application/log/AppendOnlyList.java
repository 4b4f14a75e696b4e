package io.kaas.application.log;

import java.util.Arrays;

/**
 * A list one writer appends to while readers read concurrently without locks: elements live in
 * fixed-size chunks that never move, and a reader sees the elements below the size it read from a
 * volatile field (which happens-after their writes).
 */
final class AppendOnlyList<T> {
    private static final int CHUNK_BITS = 10;
    private static final int CHUNK_SIZE = 1 << CHUNK_BITS;

    private volatile Object[][] chunks = new Object[1][];
    private volatile int size;

    /** Appends; callers serialise writes. */
    void add(T element) {
        int index = size;
        int chunk = index >>> CHUNK_BITS;
        Object[][] current = chunks;
        if (chunk == current.length) {
            current = Arrays.copyOf(current, current.length * 2);
        }
        if (current[chunk] == null) {
            current[chunk] = new Object[CHUNK_SIZE];
        }
        current[chunk][index & (CHUNK_SIZE - 1)] = element;
        chunks = current;
        size = index + 1;
    }

    int size() {
        return size;
    }

    /** The element at {@code index}, which must be below a size this reader has read. */
    @SuppressWarnings("unchecked")
    T get(int index) {
        return (T) chunks[index >>> CHUNK_BITS][index & (CHUNK_SIZE - 1)];
    }

    /** Forgets the element at {@code index} (readers must no longer look there), so it can be collected. */
    void clear(int index) {
        chunks[index >>> CHUNK_BITS][index & (CHUNK_SIZE - 1)] = null;
    }
}
