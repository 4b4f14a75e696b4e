package io.kaas.application.service;

import io.kaas.application.log.LogRead;
import io.kaas.application.log.PartitionLog;
import io.kaas.application.port.in.FetchUseCase;
import io.kaas.application.port.out.Scheduler;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.log.LeaderEpochCheck;
import io.kaas.domain.log.LogOffsets;
import io.kaas.domain.topic.TopicPartition;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Reads partitions for consumers, up to the high watermark, or for read_committed up to the last
 * stable offset. A fetch that finds fewer than {@code minBytes} is parked in the
 * {@link FetchPurgatory} until appends bring enough or its {@code maxWaitMs} runs out, then
 * answered with whatever is there.
 */
public final class FetchService implements FetchUseCase {
    private static final LogOffsets UNKNOWN_OFFSETS = new LogOffsets(-1L, -1L, -1L);

    private final TopicService topics;
    private final FetchPurgatory purgatory;
    private final Scheduler scheduler;

    public FetchService(TopicService topics, FetchPurgatory purgatory, Scheduler scheduler) {
        this.topics = topics;
        this.purgatory = purgatory;
        this.scheduler = scheduler;
    }

    @Override
    public CompletionStage<List<PartitionData>> fetch(Command command) {
        List<PartitionData> data = readAll(command);
        if (satisfied(command, data)) {
            return CompletableFuture.completedFuture(data);
        }
        ParkedFetch fetch = new ParkedFetch(command);
        purgatory.park(fetch, fetch.partitions);
        fetch.timer = scheduler.schedule(() -> fetch.complete(readAll(command)), command.maxWaitMs());
        fetch.recheck(); // an append may have slipped in before the fetch was parked
        return fetch.result;
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
            out.add(new PartitionData(p.partition(), read.error(), read.offsets(), read.records(),
                    read.abortedTransactions()));
        }
        return out;
    }

    private LogRead read(PartitionRequest p, int maxBytes, boolean minOneBatch, boolean readCommitted) {
        Optional<PartitionLog> log = topics.log(p.partition());
        if (log.isEmpty()) {
            return LogRead.failed(KafkaError.UNKNOWN_TOPIC_OR_PARTITION, UNKNOWN_OFFSETS);
        }
        KafkaError epoch = LeaderEpochCheck.check(p.currentLeaderEpoch(), log.get().leaderEpoch());
        if (epoch != KafkaError.NONE) {
            return LogRead.failed(epoch, UNKNOWN_OFFSETS);
        }
        return log.get().read(p.fetchOffset(), maxBytes, minOneBatch, readCommitted);
    }

    private final class ParkedFetch implements FetchPurgatory.Waiter {
        final Command command;
        final List<TopicPartition> partitions;
        final CompletableFuture<List<PartitionData>> result = new CompletableFuture<>();
        final AtomicBoolean done = new AtomicBoolean();
        volatile Scheduler.Cancellable timer;

        ParkedFetch(Command command) {
            this.command = command;
            this.partitions = command.partitions().stream().map(PartitionRequest::partition).distinct().toList();
        }

        @Override
        public void recheck() {
            if (done.get()) {
                return;
            }
            List<PartitionData> data = readAll(command);
            if (satisfied(command, data)) {
                complete(data);
            }
        }

        void complete(List<PartitionData> data) {
            if (!done.compareAndSet(false, true)) {
                return;
            }
            purgatory.unpark(this, partitions);
            Scheduler.Cancellable t = timer;
            if (t != null) {
                t.cancel();
            }
            result.complete(data);
        }
    }
}
