package io.kaas.application.port.out;

import io.kaas.domain.compaction.CompactionFilter;
import io.kaas.domain.compaction.OffsetMapBuilder;
import io.kaas.domain.topic.TopicPartition;
import java.nio.ByteBuffer;

/**
 * The log cleaner's view into stored record batches: reading their records' keys and rewriting
 * them without the records a cleaning drops. Besides {@link BatchRecordSearch}, the only place the
 * broker decodes records (decompressing if needed); only the cleaner of compacted topics calls it,
 * on its own thread, never Produce or Fetch.
 */
public interface CompactionRecords {

    /**
     * Walks the whole v2 batches in {@code batches} in offset order, telling {@code keys} each batch
     * and, for the batches it wants, each record's offset and key (null without one); stops when it
     * says so.
     */
    void readKeys(ByteBuffer batches, OffsetMapBuilder keys);

    /**
     * The batches of {@code batches} as the cleaning keeps them, in fresh bytes: batches it keeps
     * whole are copied, others rebuilt with their kept records (same codec, producer id, epoch, base
     * sequence, offsets and timestamps) or reduced to an empty header; a rebuilt batch holding a
     * tombstone or an empty-transaction marker gets the delete horizon {@code nowMs + deleteRetentionMs}
     * unless it has one.
     */
    ByteBuffer filter(TopicPartition partition, ByteBuffer batches, CompactionFilter filter, long nowMs,
                      long deleteRetentionMs);
}
