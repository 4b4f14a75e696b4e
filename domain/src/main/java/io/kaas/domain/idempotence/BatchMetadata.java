package io.kaas.domain.idempotence;

/** What the dedupe window remembers of one appended batch. */
public record BatchMetadata(int firstSequence, int lastSequence, long firstOffset, int offsetDelta, long maxTimestamp) {
    public long lastOffset() {
        return firstOffset + offsetDelta;
    }
}
