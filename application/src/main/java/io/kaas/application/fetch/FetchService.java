package io.kaas.application.fetch;

import io.kaas.application.log.AppendListener.Append;
import io.kaas.application.log.LogRead;
import io.kaas.application.log.PartitionLog;
import io.kaas.application.metrics.BrokerMetrics;
import io.kaas.application.port.in.FetchUseCase;
import io.kaas.application.port.in.TraceSpan;
import io.kaas.application.port.out.Scheduler;
import io.kaas.application.topic.TopicService;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.fetch.SessionKey;
import io.kaas.domain.log.LeaderEpochCheck;
import io.kaas.domain.log.LogOffsets;
import io.kaas.domain.topic.Topic;
import io.kaas.domain.topic.TopicPartition;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * Reads partitions for consumers, up to the high watermark, or for read_committed up to the last
 * stable offset. A fetch that finds fewer than {@code minBytes} is parked in the
 * {@link FetchPurgatory} until appends bring enough or its {@code maxWaitMs} runs out, then
 * answered with whatever is there.
 *
 * <p>Every read runs on the I/O executor, never on the caller's (network) thread. A fetch caught up
 * on every partition (its offset at the high watermark, or the last stable offset) parks without
 * reading: the published offsets say what a read would find, nothing. A parked fetch does not read
 * when it hears of an append: it adds up the bytes appends made readable on its partitions (Apache's
 * {@code DelayedFetch.tryComplete} does the same with log positions) and reads once, when they
 * reach {@code minBytes}, a partition goes away, or time is up.
 *
 * <p>A traced fetch (the request's span is {@link TraceSpan#current() current} when it arrives) gets the
 * partitions it covers and the bytes it answers as attributes and, when it parks, a {@code parked} child for the
 * time it waited and what woke it. Its reads have no span of their own: a span costs a sampled request more
 * than a read of a batch from memory (docs/perf/2026-12-03-observability-4.md), and the request's span less its
 * {@code parked} child is the time spent reading.
 */
public final class FetchService implements FetchUseCase {
    private static final LogOffsets UNKNOWN_OFFSETS = new LogOffsets(-1L, -1L, -1L);

    private final TopicService topics;
    private final FetchPurgatory purgatory;
    private final Scheduler scheduler;
    private final Executor io;
    private final BrokerMetrics metrics;
    private final FetchSessions sessions;

    /** Without metrics or fetch sessions: every fetch is answered sessionless. */
    public FetchService(TopicService topics, FetchPurgatory purgatory, Scheduler scheduler, Executor io) {
        this(topics, purgatory, scheduler, io, BrokerMetrics.unobserved(), FetchSessions.none());
    }

    /**
     * @param io       runs every read of a partition log: the first one of a fetch, and the one that
     *                 answers a parked fetch (not the appending thread that woke it)
     * @param metrics  counts each topic's bytes answered
     * @param sessions the broker's fetch sessions
     */
    public FetchService(TopicService topics, FetchPurgatory purgatory, Scheduler scheduler, Executor io,
                        BrokerMetrics metrics, FetchSessions sessions) {
        this.topics = topics;
        this.purgatory = purgatory;
        this.scheduler = scheduler;
        this.io = io;
        this.metrics = metrics;
        this.sessions = sessions;
        topics.addDeletionListener(this::onDeleted);
    }

    /** A deleted topic's parked fetches answer now (their read finds the partition unknown), not at maxWait. */
    private void onDeleted(Topic topic) {
        for (int p = 0; p < topic.partitionCount(); p++) {
            purgatory.onGone(topic.partition(p));
        }
    }

    /**
     * Reads what the fetch's session covers. Partitions named by an unknown topic id, or of a topic the client
     * may not read, stay in the session and are answered UNKNOWN_TOPIC_ID or TOPIC_AUTHORIZATION_FAILED each
     * time, unread, as Apache does; the others are read as one {@link Command}.
     */
    @Override
    public CompletionStage<SessionFetchResult> fetch(SessionFetch fetch) {
        FetchSessions.Opened opened = sessions.open(fetch);
        List<SessionPartition> covered = opened.partitions();
        TraceSpan span = TraceSpan.current().attribute("kaas.partitions", covered.size());
        PartitionData[] answers = new PartitionData[covered.size()];
        List<PartitionRequest> readable = new ArrayList<>(covered.size());
        TopicNames names = new TopicNames(fetch.mayRead());
        for (int i = 0; i < answers.length; i++) {
            SessionPartition p = covered.get(i);
            String name = names.of(p.key());
            KafkaError refused = name == null ? KafkaError.UNKNOWN_TOPIC_ID
                    : names.readable(name) ? KafkaError.NONE : KafkaError.TOPIC_AUTHORIZATION_FAILED;
            TopicPartition tp = new TopicPartition(name == null ? "" : name, p.key().partition());
            if (refused != KafkaError.NONE) {
                answers[i] = new PartitionData(tp, refused, UNKNOWN_OFFSETS, LogRead.failed(refused, UNKNOWN_OFFSETS).records());
            } else {
                readable.add(new PartitionRequest(tp, p.fetchOffset(), p.maxBytes(), p.currentLeaderEpoch()));
            }
        }
        if (readable.isEmpty()) { // a session error, or nothing to read: answered at once, as Apache does
            return CompletableFuture.completedFuture(answer(opened, Arrays.asList(answers), fetch.quota(), span));
        }
        Command command = new Command(fetch.maxWaitMs(), fetch.minBytes(), fetch.maxBytes(), fetch.readCommitted(),
                readable);
        return fetch(command).handle((read, failed) -> {
            if (failed != null) {
                sessions.abandon(opened);
                throw failed instanceof CompletionException e ? e : new CompletionException(failed);
            }
            Iterator<PartitionData> next = read.iterator();
            for (int i = 0; i < answers.length; i++) {
                if (answers[i] == null) {
                    answers[i] = next.next();
                }
            }
            return answer(opened, Arrays.asList(answers), fetch.quota(), span);
        });
    }

    /** The answer, or an empty throttled one when its bytes put the client over its fetch quota. */
    private SessionFetchResult answer(FetchSessions.Opened opened, List<PartitionData> read, FetchQuota quota,
                                      TraceSpan span) {
        long bytes = 0;
        for (PartitionData data : read) {
            bytes += data.sizeInBytes();
        }
        span.attribute("kaas.response.bytes", bytes);
        int throttleMs = quota.throttleMs(bytes);
        return throttleMs > 0 ? sessions.throttled(opened, throttleMs) : sessions.answer(opened, read);
    }

    /**
     * Topic names of session keys, and whether the client may read them, each looked up once per run of
     * partitions of one topic (a session lists a topic's partitions together).
     */
    private final class TopicNames {
        private final Predicate<String> mayRead;
        private SessionKey lastKey;
        private String lastName;
        private String lastChecked;
        private boolean lastReadable;

        TopicNames(Predicate<String> mayRead) {
            this.mayRead = mayRead;
        }

        /** The topic's name; null for a topic id no topic has. */
        String of(SessionKey key) {
            if (key.topicId() == null) {
                return key.topic();
            }
            if (lastKey == null || !lastKey.topicId().equals(key.topicId())) {
                lastKey = key;
                lastName = topics.byId(key.topicId()).map(Topic::name).orElse(null);
            }
            return lastName;
        }

        boolean readable(String name) {
            if (!name.equals(lastChecked)) {
                lastChecked = name;
                lastReadable = mayRead.test(name);
            }
            return lastReadable;
        }
    }

    @Override
    public CompletionStage<List<PartitionData>> fetch(Command command) {
        TraceSpan span = TraceSpan.current();
        if (command.maxWaitMs() <= 0 || command.minBytes() <= 0 || command.partitions().isEmpty()) {
            CompletableFuture<List<PartitionData>> result = new CompletableFuture<>();
            submit(() -> result.complete(counted(readAll(command))), result::completeExceptionally);
            return result;
        }
        ParkedFetch fetch = new ParkedFetch(command, span);
        // Parked before the first read: an append published after the read's snapshot is always heard.
        purgatory.park(fetch, fetch.partitions);
        List<PartitionData> nothingYet = caughtUp(command);
        if (nothingYet != null) {
            fetch.firstReadFound(nothingYet, false);
        } else {
            submit(fetch::firstRead, fetch::fail);
        }
        return fetch.result;
    }

    /**
     * What a read would find for a fetch whose every partition is caught up (a long-polling consumer's
     * usual fetch): nothing, with the published offsets; null when any partition may have bytes or an
     * error to answer, which only a read tells. Reads no file.
     */
    private List<PartitionData> caughtUp(Command command) {
        List<PartitionData> out = new ArrayList<>(command.partitions().size());
        for (PartitionRequest p : command.partitions()) {
            Optional<PartitionLog> log = topics.log(p.partition());
            if (log.isEmpty() || LeaderEpochCheck.check(p.currentLeaderEpoch(), log.get().leaderEpoch()) != KafkaError.NONE) {
                return null;
            }
            LogOffsets offsets = log.get().offsets();
            long readable = command.readCommitted() ? offsets.lastStableOffset() : offsets.highWatermark();
            if (p.fetchOffset() != readable || p.fetchOffset() < offsets.logStartOffset()) {
                return null;
            }
            out.add(data(p, LogRead.empty(offsets)));
        }
        return out;
    }

    private static PartitionData data(PartitionRequest p, LogRead read) {
        return new PartitionData(p.partition(), read.error(), read.offsets(), read.records(), read.abortedTransactions());
    }

    /** Runs {@code task} on the I/O executor; a task that throws, or is refused, reaches {@code failed}. */
    private void submit(Runnable task, Consumer<Throwable> failed) {
        try {
            io.execute(() -> {
                try {
                    task.run();
                } catch (RuntimeException e) {
                    failed.accept(e);
                }
            });
        } catch (RejectedExecutionException e) {
            failed.accept(e); // shutting down
        }
    }

    /** The answer of a fetch, its bytes counted per topic as sent. */
    private List<PartitionData> counted(List<PartitionData> answer) {
        for (int i = 0; i < answer.size(); i++) {
            PartitionData d = answer.get(i);
            int bytes = d.sizeInBytes();
            if (bytes > 0) {
                metrics.topic(d.partition().topic()).sent(bytes);
            }
        }
        return answer;
    }

    private static boolean satisfied(Command command, List<PartitionData> data) {
        if (command.maxWaitMs() <= 0 || data.isEmpty()) {
            return true;
        }
        int bytes = 0;
        for (PartitionData d : data) {
            if (d.error() != KafkaError.NONE) {
                return true;
            }
            bytes += d.sizeInBytes();
        }
        return bytes >= command.minBytes();
    }

    /** Reads in request order within the response limit; the first batch found is returned whole (KIP-74). */
    private List<PartitionData> readAll(Command command) {
        List<PartitionData> out = new ArrayList<>(command.partitions().size());
        int remaining = Math.max(command.maxBytes(), 0);
        boolean minOneBatch = true;
        for (PartitionRequest p : command.partitions()) {
            LogRead read = read(p, Math.min(Math.max(p.maxBytes(), 0), remaining), minOneBatch, command.readCommitted());
            int size = read.sizeInBytes();
            if (size > 0) {
                minOneBatch = false;
                remaining = Math.max(remaining - size, 0);
            }
            out.add(data(p, read));
        }
        return out;
    }

    private LogRead read(PartitionRequest p, int maxBytes, boolean minOneBatch, boolean readCommitted) {
        Optional<PartitionLog> log = topics.log(p.partition());
        if (log.isEmpty()) {
            return LogRead.failed(topics.notServedHere(p.partition()), UNKNOWN_OFFSETS);
        }
        KafkaError epoch = LeaderEpochCheck.check(p.currentLeaderEpoch(), log.get().leaderEpoch());
        if (epoch != KafkaError.NONE) {
            return LogRead.failed(epoch, UNKNOWN_OFFSETS);
        }
        return log.get().read(p.fetchOffset(), maxBytes, minOneBatch, readCommitted);
    }

    private enum State { READING, PARKED, DONE }

    /**
     * A fetch waiting for {@code minBytes}. Registered in the purgatory before its first read, so
     * appends published while that read runs are kept and weighed once the read tells what it saw.
     * Appends and deletions reach it on the thread that made them; it only counts there, and hands
     * its one answering read to the I/O executor.
     */
    private final class ParkedFetch implements FetchPurgatory.Waiter {
        final Command command;
        final List<TopicPartition> partitions;
        final CompletableFuture<List<PartitionData>> result = new CompletableFuture<>();
        /** The request's span. */
        final TraceSpan span;

        // guarded by this
        private State state = State.READING;
        /** Appends heard while the first read runs; weighed against what it saw. */
        private List<Append> heardWhileReading = List.of();
        private boolean goneWhileReading;
        private Map<TopicPartition, List<Watch>> watches;
        /** What the partitions hold for this fetch now: the sum of their {@link Watch#counted()}. */
        private long accumulated;
        private Scheduler.Cancellable timer;
        /** The time parked, as a child of the request's span: from parking until woken. */
        private TraceSpan parked = TraceSpan.NONE;

        ParkedFetch(Command command, TraceSpan span) {
            this.command = command;
            this.span = span;
            this.partitions = command.partitions().stream().map(PartitionRequest::partition).distinct().toList();
        }

        /** On the I/O executor. */
        void firstRead() {
            firstReadFound(readAll(command), true);
        }

        /**
         * Weighs what the first read found, and what appends brought since. {@code onIo}: whether this
         * thread may read again, or must hand that read to the I/O executor.
         */
        void firstReadFound(List<PartitionData> data, boolean onIo) {
            boolean answer;
            boolean readAgain = false;
            synchronized (this) {
                if (state == State.DONE) {
                    return; // failed meanwhile
                }
                answer = satisfied(command, data);
                if (!answer) {
                    watch(data);
                    readAgain = goneWhileReading;
                    for (Append append : heardWhileReading) {
                        readAgain |= heard(append);
                    }
                    answer = readAgain;
                }
                heardWhileReading = List.of();
                state = answer ? State.DONE : State.PARKED;
                if (!answer) {
                    parked = span.child("parked").attribute("kaas.max_wait_ms", command.maxWaitMs())
                            .attribute("kaas.min_bytes", command.minBytes());
                }
            }
            if (readAgain && onIo) {
                finish(readAll(command)); // appends during the first read, past what it saw, brought enough
            } else if (readAgain) {
                answerLater();
            } else if (answer) {
                finish(data);
            } else {
                Scheduler.Cancellable t = scheduler.schedule(this::expire, command.maxWaitMs());
                boolean late;
                synchronized (this) {
                    late = state == State.DONE;
                    timer = late ? null : t;
                }
                if (late) {
                    t.cancel();
                }
            }
        }

        /** What each partition's first read saw: the baseline appends are weighed against. Under the lock. */
        private void watch(List<PartitionData> data) {
            watches = new HashMap<>();
            for (int i = 0; i < data.size(); i++) {
                PartitionRequest request = command.partitions().get(i);
                Watch w = new Watch(request, data.get(i), command.readCommitted());
                watches.computeIfAbsent(request.partition(), tp -> new ArrayList<>(1)).add(w);
                accumulated += w.counted();
            }
        }

        /** Weighs one append; true when the fetch should answer now. Under the lock, parked. */
        private boolean heard(Append append) {
            List<Watch> ws = watches.get(append.partition());
            if (ws == null) {
                return false;
            }
            boolean now = false;
            for (Watch w : ws) {
                long before = w.counted();
                now |= w.heard(append);
                accumulated += w.counted() - before;
            }
            return now || accumulated >= command.minBytes();
        }

        @Override
        public void onAppend(Append append) {
            synchronized (this) {
                switch (state) {
                    case READING -> {
                        if (heardWhileReading.isEmpty()) {
                            heardWhileReading = new ArrayList<>();
                        }
                        heardWhileReading.add(append);
                        return;
                    }
                    case DONE -> {
                        return;
                    }
                    case PARKED -> {
                        if (!heard(append)) {
                            return;
                        }
                        woken("appends");
                    }
                }
            }
            answerLater();
        }

        @Override
        public void onGone(TopicPartition partition) {
            synchronized (this) {
                switch (state) {
                    case READING -> {
                        goneWhileReading = true;
                        return;
                    }
                    case DONE -> {
                        return;
                    }
                    case PARKED -> woken("partition gone");
                }
            }
            answerLater();
        }

        /** maxWait ran out: answer with whatever is there. */
        void expire() {
            synchronized (this) {
                if (state != State.PARKED) {
                    return;
                }
                woken("max wait");
            }
            answerLater();
        }

        /** Parked, now to answer: ends the parked span with what woke it. Under the lock. */
        private void woken(String by) {
            state = State.DONE;
            parked.attribute("kaas.woken_by", by).end();
        }

        /** Hands the answering read to the I/O executor: the thread that woke the fetch does not read. */
        private void answerLater() {
            submit(() -> finish(readAll(command)), this::fail);
        }

        private void finish(List<PartitionData> data) {
            release();
            result.complete(counted(data));
        }

        void fail(Throwable error) {
            synchronized (this) {
                state = State.DONE;
                parked.end();
            }
            release();
            result.completeExceptionally(error);
        }

        private void release() {
            purgatory.unpark(this, partitions);
            Scheduler.Cancellable t;
            synchronized (this) {
                t = timer;
                timer = null;
            }
            if (t != null) {
                t.cancel();
            }
        }
    }

    /**
     * One requested partition of a parked fetch: the bytes its first read got, plus those appends
     * made readable since. An append counts once it lies past what the read saw (its end beyond
     * the high watermark the read saw) and below the cap (high watermark, or last stable offset for
     * read_committed); a read_committed fetch keeps appends above the last stable offset aside until
     * a marker moves it over them. Not thread-safe: guarded by its fetch.
     */
    private static final class Watch {
        private final long fetchOffset;
        private final boolean readCommitted;
        /** Counting stops here: the partition's maxBytes, or the first read's size if larger (KIP-74). */
        private final long limit;
        /** The log end the first read saw; appends ending at or below it were in its snapshot. */
        private final long seenEnd;
        /**
         * Where read_committed bytes of unknown size start: those between the last stable offset the
         * read saw (or the fetch offset, if above it) and {@link #seenEnd}, appended before the read.
         */
        private final long unknownFrom;
        private long cap;
        private long bytes;
        /** Appends past {@link #seenEnd} not yet below the cap: end offsets and sizes. */
        private long[] pendingEnds = new long[0];
        private int[] pendingSizes = new int[0];
        private int pending;

        Watch(PartitionRequest request, PartitionData read, boolean readCommitted) {
            this.fetchOffset = request.fetchOffset();
            this.readCommitted = readCommitted;
            this.bytes = read.sizeInBytes();
            this.limit = Math.max(Math.max(request.maxBytes(), 0), bytes);
            this.seenEnd = read.offsets().highWatermark();
            this.cap = capOf(read.offsets());
            this.unknownFrom = Math.max(cap, fetchOffset);
        }

        private long capOf(LogOffsets offsets) {
            return readCommitted ? offsets.lastStableOffset() : offsets.highWatermark();
        }

        long counted() {
            return Math.min(bytes, limit);
        }

        /** Weighs an append to this partition; true when the fetch must answer whatever the bytes. */
        boolean heard(Append append) {
            LogOffsets offsets = append.offsets();
            if (offsets.logStartOffset() > fetchOffset) {
                return true; // the fetch offset is gone: its read answers OFFSET_OUT_OF_RANGE
            }
            long newCap = capOf(offsets);
            if (newCap > cap) {
                if (newCap > unknownFrom && seenEnd > unknownFrom) {
                    // A marker made readable bytes appended before the read, whose size it never saw:
                    // rather than read to count them, answer (at least one batch became readable).
                    return true;
                }
                cap = newCap;
            }
            if (append.endOffset() > seenEnd) {
                if (append.endOffset() <= cap) {
                    bytes += append.sizeInBytes();
                } else {
                    keep(append.endOffset(), append.sizeInBytes());
                }
            }
            if (pending > 0) {
                drainBelowCap();
            }
            return false;
        }

        private void keep(long end, int size) {
            if (pending == pendingEnds.length) {
                int grown = Math.max(4, pending * 2);
                pendingEnds = Arrays.copyOf(pendingEnds, grown);
                pendingSizes = Arrays.copyOf(pendingSizes, grown);
            }
            pendingEnds[pending] = end;
            pendingSizes[pending] = size;
            pending++;
        }

        private void drainBelowCap() {
            int kept = 0;
            for (int i = 0; i < pending; i++) {
                if (pendingEnds[i] <= cap) {
                    bytes += pendingSizes[i];
                } else {
                    pendingEnds[kept] = pendingEnds[i];
                    pendingSizes[kept] = pendingSizes[i];
                    kept++;
                }
            }
            pending = kept;
        }
    }
}
