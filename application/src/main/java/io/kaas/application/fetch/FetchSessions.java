package io.kaas.application.fetch;

import io.kaas.application.port.in.FetchUseCase.PartitionData;
import io.kaas.application.port.in.FetchUseCase.SessionAnswer;
import io.kaas.application.port.in.FetchUseCase.SessionFetch;
import io.kaas.application.port.in.FetchUseCase.SessionFetchResult;
import io.kaas.application.port.in.FetchUseCase.SessionPartition;
import io.kaas.application.port.out.Clock;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.fetch.CachedPartition;
import io.kaas.domain.fetch.FetchSession;
import io.kaas.domain.fetch.FetchSessionCache;
import io.kaas.domain.fetch.FetchSessionEpoch;
import io.kaas.domain.fetch.SessionKey;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.IntSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The broker's KIP-227 fetch sessions, shared by every connection whatever event loop it runs on. A fetch
 * is {@link #open opened} (the session it names is found, checked and updated, or closed), its partitions
 * read, then {@link #answer answered} (a full fetch may open a session; an incremental one keeps only the
 * partitions that changed), as Apache's {@code FetchManager} and its fetch contexts do.
 *
 * <p>Locks: the cache's (this object's) for sessions coming and going, a session's own for its partitions;
 * a session's lock is never held while taking the cache's.
 */
public final class FetchSessions {
    private static final Logger LOG = LoggerFactory.getLogger(FetchSessions.class);

    private final FetchSessionCache<SessionPartition> cache;
    private final Clock clock;
    private final List<Consumer<Exchange>> observers = new CopyOnWriteArrayList<>();
    private final AtomicInteger inProgress = new AtomicInteger();

    /**
     * @param slots      Apache's {@code max.incremental.fetch.session.cache.slots}; 0 opens no session
     * @param evictionMs how long a session is safe from eviction by a bigger one, and how long unused before
     *                   any new one may evict it
     * @param randomInts the source of session ids
     */
    public FetchSessions(int slots, long evictionMs, Clock clock, IntSupplier randomInts) {
        this.cache = new FetchSessionCache<>(slots, evictionMs, randomInts);
        this.clock = clock;
    }

    /** No sessions: every fetch is answered as sessionless, as Apache with zero cache slots. */
    public static FetchSessions none() {
        return new FetchSessions(0, FetchSessionCache.DEFAULT_EVICTION_MS, () -> 0L, () -> 1);
    }

    /** What one fetch was, as the broker saw it: for tests and diagnostics. */
    public enum Kind { SESSIONLESS, FULL, INCREMENTAL, ERROR }

    /**
     * One fetch exchange: how many partitions the request named, how many the answer carried, the session
     * id answered and the session error, if any.
     */
    public record Exchange(Kind kind, int requestedPartitions, int answeredPartitions, int sessionId, KafkaError error) {
    }

    /** Calls {@code observer} with every answered fetch, on the answering thread; it must be quick. */
    public void observe(Consumer<Exchange> observer) {
        observers.add(observer);
    }

    /** Sessions open now. */
    public synchronized int size() {
        return cache.size();
    }

    /** Fetches opened and not yet answered: mostly long polls parked for data. */
    public int fetchesInProgress() {
        return inProgress.get();
    }

    /** Sessions evicted so far to make room for new ones. */
    public synchronized long evictions() {
        return cache.evictions();
    }

    /** A fetch between {@link #open} and {@link #answer}: which partitions to read, and how to answer them. */
    public sealed interface Opened {
        /** The partitions to read, in order; {@link #answer} takes their answers in the same order. */
        List<SessionPartition> partitions();
    }

    /** A session error: nothing is read. */
    record Refused(KafkaError error) implements Opened {
        @Override
        public List<SessionPartition> partitions() {
            return List.of();
        }
    }

    /** A full fetch, opening a session ({@code opens}) or not. */
    record Full(boolean opens, boolean usesTopicIds, List<SessionPartition> partitions) implements Opened {
    }

    /** An incremental fetch reading its whole session, as it was once the request was applied. */
    record Incremental(FetchSession<SessionPartition> session, int answerEpoch, int requested,
                       List<CachedPartition<SessionPartition>> cached, List<SessionPartition> partitions)
            implements Opened {
    }

    /**
     * Finds, checks and updates (or closes) the session a fetch names; says what to read. Every opened fetch
     * is {@link #answer answered} or {@link #abandon abandoned}.
     */
    public Opened open(SessionFetch fetch) {
        inProgress.incrementAndGet();
        if (FetchSessionEpoch.isFull(fetch.epoch())) {
            if (fetch.sessionId() != FetchSessionEpoch.NO_SESSION) {
                synchronized (this) {
                    cache.remove(fetch.sessionId()); // a full fetch closes the session it names
                }
            }
            return new Full(fetch.epoch() == FetchSessionEpoch.INITIAL, fetch.usesTopicIds(),
                    distinct(fetch.partitions()));
        }
        synchronized (this) {
            Optional<FetchSession<SessionPartition>> found = cache.get(fetch.sessionId());
            if (found.isEmpty()) {
                return new Refused(KafkaError.FETCH_SESSION_ID_NOT_FOUND);
            }
            FetchSession<SessionPartition> session = found.get();
            synchronized (session) {
                if (session.epoch() != fetch.epoch()) {
                    return new Refused(KafkaError.INVALID_FETCH_SESSION_EPOCH);
                }
                if (session.usesTopicIds() != fetch.usesTopicIds()) {
                    return new Refused(KafkaError.FETCH_SESSION_TOPIC_ID_ERROR);
                }
                Map<SessionKey, SessionPartition> requested = new LinkedHashMap<>();
                fetch.partitions().forEach(p -> requested.put(p.key(), p));
                session.update(requested, fetch.forgotten());
                if (session.size() == 0) {
                    cache.remove(session); // nothing left to fetch: the session ends, the answer is sessionless
                    return new Full(false, fetch.usesTopicIds(), distinct(fetch.partitions()));
                }
                cache.touch(session, clock.nowMs());
                List<CachedPartition<SessionPartition>> cached = session.partitions();
                List<SessionPartition> partitions = new ArrayList<>(cached.size());
                cached.forEach(c -> partitions.add(c.request()));
                return new Incremental(session, session.epoch(), fetch.partitions().size(), cached, partitions);
            }
        }
    }

    /** A full fetch names each partition once; the last mention wins, as in Apache's request map. */
    private static List<SessionPartition> distinct(List<SessionPartition> partitions) {
        Map<SessionKey, SessionPartition> byKey = new LinkedHashMap<>();
        partitions.forEach(p -> byKey.put(p.key(), p));
        return byKey.size() == partitions.size() ? partitions : List.copyOf(byKey.values());
    }

    /**
     * Answers an opened fetch given what was read for each of its {@link Opened#partitions()}, in order: a
     * full fetch answers them all (under a new session if it may open one and there is room), an incremental
     * one only those that changed since they were last answered.
     */
    public SessionFetchResult answer(Opened opened, List<PartitionData> read) {
        inProgress.decrementAndGet();
        SessionFetchResult result;
        Kind kind;
        int requested;
        if (opened instanceof Incremental i) {
            result = changed(i, read);
            kind = Kind.INCREMENTAL;
            requested = i.requested();
        } else if (opened instanceof Full f) {
            result = new SessionFetchResult(KafkaError.NONE, f.opens() ? openSession(f, read)
                    : FetchSessionEpoch.NO_SESSION, all(f.partitions(), read));
            kind = f.opens() ? Kind.FULL : Kind.SESSIONLESS;
            requested = f.partitions().size();
        } else {
            result = new SessionFetchResult(((Refused) opened).error(), FetchSessionEpoch.NO_SESSION, List.of());
            kind = Kind.ERROR;
            requested = 0;
        }
        if (!observers.isEmpty()) {
            Exchange exchange = new Exchange(kind, requested, result.partitions().size(), result.sessionId(),
                    result.error());
            observers.forEach(o -> o.accept(exchange));
        }
        return result;
    }

    /**
     * Answers an opened fetch whose client is over its fetch quota, as Apache 3.7 does: with no partitions and the
     * session left as it was, so the next fetch reads the same data again; a full fetch opens no session.
     */
    public SessionFetchResult throttled(Opened opened, int throttleTimeMs) {
        inProgress.decrementAndGet();
        if (opened instanceof Incremental incremental) {
            FetchSession<SessionPartition> session = incremental.session();
            synchronized (session) {
                KafkaError error = session.epoch() == incremental.answerEpoch() ? KafkaError.NONE
                        : KafkaError.INVALID_FETCH_SESSION_EPOCH;
                return new SessionFetchResult(error, session.id(), List.of(), throttleTimeMs);
            }
        }
        return new SessionFetchResult(KafkaError.NONE, FetchSessionEpoch.NO_SESSION, List.of(), throttleTimeMs);
    }

    /** An opened fetch whose read failed: it is not answered. */
    public void abandon(Opened opened) {
        inProgress.decrementAndGet();
    }

    private int openSession(Full full, List<PartitionData> read) {
        int id;
        long evicted;
        synchronized (this) {
            long evictionsBefore = cache.evictions();
            id = cache.open(clock.nowMs(), full.usesTopicIds(), read.size(), session -> {
                for (int i = 0; i < read.size(); i++) {
                    PartitionData d = read.get(i);
                    SessionPartition p = full.partitions().get(i);
                    session.add(new CachedPartition<>(p.key(), p, d.offsets().highWatermark(),
                            d.offsets().lastStableOffset(), d.offsets().logStartOffset()));
                }
            });
            evicted = cache.evictions() - evictionsBefore;
        }
        if (id == FetchSessionEpoch.NO_SESSION) {
            LOG.debug("no fetch session slot free for {} partitions: answered sessionless", read.size());
        } else {
            LOG.debug("fetch session {} opened with {} partitions{}", id, read.size(),
                    evicted > 0 ? ", evicting another" : "");
        }
        return id;
    }

    private static List<SessionAnswer> all(List<SessionPartition> partitions, List<PartitionData> read) {
        List<SessionAnswer> answers = new ArrayList<>(read.size());
        for (int i = 0; i < read.size(); i++) {
            answers.add(new SessionAnswer(partitions.get(i).key(), read.get(i)));
        }
        return answers;
    }

    private static SessionFetchResult changed(Incremental incremental, List<PartitionData> read) {
        FetchSession<SessionPartition> session = incremental.session();
        synchronized (session) {
            if (session.epoch() != incremental.answerEpoch()) {
                // Another fetch with this session ran meanwhile: this one was a duplicate (Apache's answer).
                return new SessionFetchResult(KafkaError.INVALID_FETCH_SESSION_EPOCH, session.id(), List.of());
            }
            List<SessionAnswer> answers = new ArrayList<>();
            for (int i = 0; i < read.size(); i++) {
                CachedPartition<SessionPartition> cached = incremental.cached().get(i);
                PartitionData d = read.get(i);
                boolean hasRecords = d.sizeInBytes() > 0;
                if (cached.mustRespond(hasRecords, d.error() != KafkaError.NONE, d.offsets().highWatermark(),
                        d.offsets().lastStableOffset(), d.offsets().logStartOffset())) {
                    answers.add(new SessionAnswer(cached.key(), d));
                    if (hasRecords) {
                        session.sendToBack(cached);
                    }
                }
            }
            return new SessionFetchResult(KafkaError.NONE, session.id(), answers);
        }
    }
}
