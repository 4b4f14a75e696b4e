package io.kaas.domain.fetch;

import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.IntSupplier;

/**
 * The broker's fetch sessions, at most {@code maxSlots} of them, evicting as Apache's
 * {@code FetchSessionCache} does when a full fetch asks for a new one and the cache is full: first the
 * session unused for longer than {@code evictionMs}, else the smallest session created more than
 * {@code evictionMs} ago if the new one has more partitions; else no session is opened and the fetch is
 * answered sessionless. Every session here is a consumer's (no followers: none is privileged). Not
 * thread-safe: its owner guards it.
 *
 * @param <R> the fetch parameters a client sends for a partition
 */
public final class FetchSessionCache<R> {
    /** Apache's {@code MIN_INCREMENTAL_FETCH_SESSION_EVICTION_MS}: how long a session is safe from eviction. */
    public static final long DEFAULT_EVICTION_MS = 120_000L;
    /** Apache's {@code max.incremental.fetch.session.cache.slots} default. */
    public static final int DEFAULT_SLOTS = 1000;

    private record LastUse(long ms, int id) {
    }

    private record Evictable(int size, int id) {
    }

    private static final Comparator<LastUse> BY_LAST_USE = Comparator.comparingLong(LastUse::ms)
            .thenComparingInt(LastUse::id);
    private static final Comparator<Evictable> BY_SIZE = Comparator.comparingInt(Evictable::size)
            .thenComparingInt(Evictable::id);

    private final int maxSlots;
    private final long evictionMs;
    private final IntSupplier randomInts;
    private final Map<Integer, FetchSession<R>> sessions = new HashMap<>();
    private final TreeMap<LastUse, FetchSession<R>> byLastUse = new TreeMap<>(BY_LAST_USE);
    /** Sessions old enough that a bigger new one may evict them, smallest first. */
    private final TreeMap<Evictable, FetchSession<R>> evictable = new TreeMap<>(BY_SIZE);
    private long partitions;
    private long evictions;

    /** @param randomInts the source of new session ids (any ints; the cache keeps the positive unused ones) */
    public FetchSessionCache(int maxSlots, long evictionMs, IntSupplier randomInts) {
        this.maxSlots = maxSlots;
        this.evictionMs = evictionMs;
        this.randomInts = randomInts;
    }

    public Optional<FetchSession<R>> get(int id) {
        return Optional.ofNullable(sessions.get(id));
    }

    /**
     * Opens a session for a full fetch answered with {@code size} partitions, if there is a free slot or one
     * can be freed; {@code fill} adds the answered partitions to the new session. Returns the new session's id,
     * or {@link FetchSessionEpoch#NO_SESSION} (and {@code fill} is not called).
     */
    public int open(long nowMs, boolean usesTopicIds, int size, Consumer<FetchSession<R>> fill) {
        if (sessions.size() >= maxSlots && !evictFor(size, nowMs)) {
            return FetchSessionEpoch.NO_SESSION;
        }
        FetchSession<R> session = new FetchSession<>(newId(), usesTopicIds, nowMs);
        fill.accept(session);
        sessions.put(session.id(), session);
        touch(session, nowMs);
        return session.id();
    }

    /** Frees the slot of the least valuable session a new one of {@code size} partitions may take, if any. */
    private boolean evictFor(int size, long nowMs) {
        Map.Entry<LastUse, FetchSession<R>> leastRecent = byLastUse.firstEntry();
        if (leastRecent == null) {
            return false;
        }
        if (nowMs - leastRecent.getKey().ms() > evictionMs) {
            evict(leastRecent.getValue());
            return true;
        }
        Map.Entry<Evictable, FetchSession<R>> smallest = evictable.firstEntry();
        if (smallest == null || BY_SIZE.compare(new Evictable(size, 0), smallest.getKey()) < 0) {
            return false;
        }
        evict(smallest.getValue());
        return true;
    }

    private void evict(FetchSession<R> session) {
        remove(session);
        evictions++;
    }

    /** Marks a session used now and refiles it under its current size. */
    public void touch(FetchSession<R> session, long nowMs) {
        byLastUse.remove(new LastUse(session.lastUsedMs(), session.id()));
        session.lastUsedMs(nowMs);
        byLastUse.put(new LastUse(nowMs, session.id()), session);
        if (session.cachedSize() >= 0) {
            evictable.remove(new Evictable(session.cachedSize(), session.id()));
            partitions -= session.cachedSize();
        }
        session.cachedSize(session.size());
        partitions += session.size();
        if (nowMs - session.creationMs() > evictionMs) {
            evictable.put(new Evictable(session.size(), session.id()), session);
        }
    }

    /** Closes a session; false when there is none by that id. */
    public boolean remove(int id) {
        FetchSession<R> session = sessions.get(id);
        if (session == null) {
            return false;
        }
        remove(session);
        return true;
    }

    public void remove(FetchSession<R> session) {
        if (sessions.remove(session.id(), session)) {
            byLastUse.remove(new LastUse(session.lastUsedMs(), session.id()));
            evictable.remove(new Evictable(session.cachedSize(), session.id()));
            partitions -= session.cachedSize();
            session.cachedSize(-1);
        }
    }

    /** Sessions open now. */
    public int size() {
        return sessions.size();
    }

    /** Partitions held by all open sessions, as of their last use. */
    public long partitions() {
        return partitions;
    }

    /** Sessions evicted so far to make room for new ones. */
    public long evictions() {
        return evictions;
    }

    private int newId() {
        int id;
        do {
            id = randomInts.getAsInt() & Integer.MAX_VALUE;
        } while (id == FetchSessionEpoch.NO_SESSION || sessions.containsKey(id));
        return id;
    }
}
