package io.kaas.application.metrics;

import io.kaas.application.port.out.BatchRecordSearch;
import io.kaas.application.port.out.CompactionRecords;
import io.kaas.application.port.out.RecordKeys;
import io.kaas.domain.compaction.CompactionFilter;
import io.kaas.domain.compaction.OffsetMapBuilder;
import io.kaas.domain.topic.TopicPartition;
import java.nio.ByteBuffer;
import java.util.Locale;
import java.util.concurrent.atomic.LongAdder;

/**
 * The book's byte-opacity tripwires: how often the broker decoded records ({@code codec_record_decode}) or
 * rebuilt a batch ({@code codec_batch_reencode}), by the {@link Site} that did. Produce and Fetch never do
 * (the records travel as the client's bytes); the only decoders are the record ports below, for the three
 * features Apache also reads records for, and each is wrapped here so every call through it counts. A new
 * decoding port must get a site and a wrapper: the counters name every place records are read.
 */
public final class ByteOpacityTripwires {
    /** Where records were decoded or a batch rebuilt; the {@code site} label. */
    public enum Site {
        /** ListOffsets by timestamp: the records of the batch the index lands on, for the first at the time. */
        LIST_OFFSETS_BY_TIMESTAMP,
        /** A produce to a compacted topic: Apache refuses records without a key, so their keys are looked at. */
        COMPACTED_PRODUCE_KEYS,
        /** The log cleaner's pass over a dirty segment for its keys. */
        COMPACTION_KEYS,
        /** The log cleaner's rewrite of a segment, dropping superseded records (decodes, and rebuilds batches). */
        COMPACTION_REWRITE;

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private final LongAdder[] recordDecodes = adders();
    private final LongAdder[] batchReencodes = adders();

    private static LongAdder[] adders() {
        LongAdder[] adders = new LongAdder[Site.values().length];
        for (int i = 0; i < adders.length; i++) {
            adders[i] = new LongAdder();
        }
        return adders;
    }

    /** Calls that decoded records at {@code site}. */
    public long recordDecodes(Site site) {
        return recordDecodes[site.ordinal()].sum();
    }

    /** Calls that may have rebuilt batches at {@code site}. */
    public long batchReencodes(Site site) {
        return batchReencodes[site.ordinal()].sum();
    }

    private void decoded(Site site) {
        recordDecodes[site.ordinal()].increment();
    }

    /** {@code search}, each call counted as a decode at {@link Site#LIST_OFFSETS_BY_TIMESTAMP}. */
    public BatchRecordSearch counted(BatchRecordSearch search) {
        return (batch, timestamp, minOffset) -> {
            decoded(Site.LIST_OFFSETS_BY_TIMESTAMP);
            return search.firstAtOrAfter(batch, timestamp, minOffset);
        };
    }

    /** {@code keys}, each call counted as a decode at {@link Site#COMPACTED_PRODUCE_KEYS}. */
    public RecordKeys counted(RecordKeys keys) {
        return batch -> {
            decoded(Site.COMPACTED_PRODUCE_KEYS);
            return keys.recordsWithoutKey(batch);
        };
    }

    /** {@code records}, its key pass and its rewrite counted at their sites. */
    public CompactionRecords counted(CompactionRecords records) {
        return new CompactionRecords() {
            @Override
            public void readKeys(ByteBuffer batches, OffsetMapBuilder keys) {
                decoded(Site.COMPACTION_KEYS);
                records.readKeys(batches, keys);
            }

            @Override
            public ByteBuffer filter(TopicPartition partition, ByteBuffer batches, CompactionFilter filter, long nowMs,
                                     long deleteRetentionMs) {
                decoded(Site.COMPACTION_REWRITE);
                batchReencodes[Site.COMPACTION_REWRITE.ordinal()].increment();
                return records.filter(partition, batches, filter, nowMs, deleteRetentionMs);
            }
        };
    }
}
