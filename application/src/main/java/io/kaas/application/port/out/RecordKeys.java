package io.kaas.application.port.out;

import java.nio.ByteBuffer;
import java.util.List;

/**
 * Finds the records without a key in a produced batch, which a compacted topic refuses as Apache's
 * validation does. Produce calls it only for topics whose {@code cleanup.policy} includes compact;
 * batches of every other topic stay opaque.
 */
public interface RecordKeys {

    /** The indexes, within the v2 batch {@code batch}, of its records that have no key. */
    List<Integer> recordsWithoutKey(ByteBuffer batch);
}
