package io.kaas.domain.fetch;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One client's fetch session: the partitions it fetches, in the order they are read (a partition that
 * returned records moves to the back, so the response size limit rotates over the partitions), and the
 * epoch its next incremental fetch must carry. Not thread-safe: its owner guards it.
 *
 * @param <R> the fetch parameters a client sends for a partition
 */
public final class FetchSession<R> {
    private final int id;
    private final boolean usesTopicIds;
    private final long creationMs;
    private final Map<SessionKey, CachedPartition<R>> partitions = new LinkedHashMap<>();
    private long lastUsedMs;
    private int epoch = FetchSessionEpoch.next(FetchSessionEpoch.INITIAL);
    /** The partition count the cache last filed this session under; -1 while it is not in the cache. */
    private int cachedSize = -1;

    FetchSession(int id, boolean usesTopicIds, long creationMs) {
        this.id = id;
        this.usesTopicIds = usesTopicIds;
        this.creationMs = creationMs;
        this.lastUsedMs = creationMs;
    }

    public int id() {
        return id;
    }

    /** Whether the session names partitions by topic id (opened by Fetch v13+). */
    public boolean usesTopicIds() {
        return usesTopicIds;
    }

    /** The epoch the next incremental fetch must carry. */
    public int epoch() {
        return epoch;
    }

    public int size() {
        return partitions.size();
    }

    /** Adds a partition answered by the opening full fetch; a key already present is replaced. */
    public void add(CachedPartition<R> partition) {
        partitions.put(partition.key(), partition);
    }

    /**
     * Applies an incremental fetch: partitions it names are added or get their new parameters, then the
     * forgotten ones leave. Advances the epoch.
     */
    public void update(Map<SessionKey, R> requested, Collection<SessionKey> forgotten) {
        requested.forEach((key, request) -> {
            CachedPartition<R> cached = partitions.get(key);
            if (cached == null) {
                partitions.put(key, new CachedPartition<>(key, request));
            } else {
                cached.request(request);
            }
        });
        forgotten.forEach(partitions::remove);
        epoch = FetchSessionEpoch.next(epoch);
    }

    /** The partitions in reading order, as a copy the caller may hold while the session changes. */
    public List<CachedPartition<R>> partitions() {
        return new ArrayList<>(partitions.values());
    }

    /** Moves a partition that returned records behind the others, to be read last next time. */
    public void sendToBack(CachedPartition<R> partition) {
        if (partitions.remove(partition.key(), partition)) {
            partitions.put(partition.key(), partition);
        }
    }

    long creationMs() {
        return creationMs;
    }

    long lastUsedMs() {
        return lastUsedMs;
    }

    void lastUsedMs(long nowMs) {
        lastUsedMs = nowMs;
    }

    int cachedSize() {
        return cachedSize;
    }

    void cachedSize(int size) {
        cachedSize = size;
    }

    @Override
    public String toString() {
        return "FetchSession{id=" + id + ", epoch=" + epoch + ", partitions=" + partitions.size() + "}";
    }
}
