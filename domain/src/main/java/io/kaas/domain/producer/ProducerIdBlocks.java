package io.kaas.domain.producer;

import java.util.OptionalLong;

/**
 * Producer-id allocation for one broker. The id space is partitioned by broker,
 * {@code pid = (brokerId + 1) * 2^40 + local}, so brokers never coordinate; {@code local} advances
 * in blocks of {@value #BLOCK_SIZE} whose end is persisted before any id in the block is handed
 * out, so a crash skips ids forward and never reissues one.
 *
 * <p>Usage: {@link #next()}; when it is empty, persist {@link #nextBlockEnd()} durably, call
 * {@link #blockPersisted(long)}, and ask again. Not thread-safe.
 */
public final class ProducerIdBlocks {
    public static final int BLOCK_SIZE = 1000;
    /** Ids per broker: 2^40. */
    public static final long BROKER_SPACE = 1L << 40;
    /** Largest broker id whose whole id range still fits a positive long (beyond it pids would go negative). */
    public static final int MAX_BROKER_ID = (int) (Long.MAX_VALUE / BROKER_SPACE) - 1;

    private final int brokerId;
    private long nextLocal;
    private long blockEnd;

    /**
     * @param brokerId     this broker's id, 0 to {@link #MAX_BROKER_ID}
     * @param persistedEnd the block end last persisted (0 when none): every id below it may have been issued
     */
    public ProducerIdBlocks(int brokerId, long persistedEnd) {
        if (brokerId < 0 || brokerId > MAX_BROKER_ID) {
            throw new IllegalArgumentException("broker id must be in [0, " + MAX_BROKER_ID + "]: " + brokerId);
        }
        if (persistedEnd < 0 || persistedEnd > BROKER_SPACE) {
            throw new IllegalArgumentException("persisted block end out of range: " + persistedEnd);
        }
        this.brokerId = brokerId;
        this.nextLocal = persistedEnd;
        this.blockEnd = persistedEnd;
    }

    /** The next producer id, or empty when the current block is used up. */
    public OptionalLong next() {
        if (nextLocal >= blockEnd) {
            return OptionalLong.empty();
        }
        return OptionalLong.of((brokerId + 1L) * BROKER_SPACE + nextLocal++);
    }

    /** The end of the block that follows the current one; persist it before {@link #blockPersisted}. */
    public long nextBlockEnd() {
        long end = blockEnd + BLOCK_SIZE;
        if (end > BROKER_SPACE) {
            throw new IllegalStateException("producer id space of broker " + brokerId + " is exhausted");
        }
        return end;
    }

    /** Opens the block ending at {@code end}, which is now durable. */
    public void blockPersisted(long end) {
        if (end != nextBlockEnd()) {
            throw new IllegalArgumentException("expected block end " + nextBlockEnd() + ", got " + end);
        }
        nextLocal = blockEnd;
        blockEnd = end;
    }
}
