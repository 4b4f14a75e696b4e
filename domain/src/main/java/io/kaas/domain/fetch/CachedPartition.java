package io.kaas.domain.fetch;

/**
 * One partition of a fetch session: what the client last asked of it ({@code R}, opaque here: offset, limits)
 * and what it was last answered, so that an incremental answer leaves it out while nothing changed.
 * Guarded by its session's owner.
 *
 * @param <R> the fetch parameters the client last sent for the partition
 */
public final class CachedPartition<R> {
    /** What a partition added by an incremental fetch was "last answered": nothing, so its first answer goes out. */
    static final long NOT_ANSWERED = -1L;

    private final SessionKey key;
    private R request;
    private long highWatermark;
    private long lastStableOffset;
    private long logStartOffset;

    /** A partition answered by the full fetch that opened the session. */
    public CachedPartition(SessionKey key, R request, long highWatermark, long lastStableOffset, long logStartOffset) {
        this.key = key;
        this.request = request;
        this.highWatermark = highWatermark;
        this.lastStableOffset = lastStableOffset;
        this.logStartOffset = logStartOffset;
    }

    CachedPartition(SessionKey key, R request) {
        this(key, request, NOT_ANSWERED, NOT_ANSWERED, NOT_ANSWERED);
    }

    public SessionKey key() {
        return key;
    }

    public R request() {
        return request;
    }

    void request(R updated) {
        request = updated;
    }

    /**
     * Whether this answer must go into an incremental response, as Apache's session decides it: it carries
     * records or an error, or its high watermark, last stable offset or log start moved since the last answer
     * sent. Remembers the offsets sent; after an error it forgets the high watermark, so the partition is sent
     * again once the error is gone.
     */
    public boolean mustRespond(boolean hasRecords, boolean failed, long highWatermark, long lastStableOffset,
                               long logStartOffset) {
        boolean changed = hasRecords || failed || highWatermark != this.highWatermark
                || lastStableOffset != this.lastStableOffset || logStartOffset != this.logStartOffset;
        this.highWatermark = failed ? NOT_ANSWERED : highWatermark;
        this.lastStableOffset = lastStableOffset;
        this.logStartOffset = logStartOffset;
        return changed;
    }
}
