package io.kaas.application.topic;

import io.kaas.application.log.LogEngine;
import io.kaas.application.port.in.LogDirsUseCase;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.topic.TopicPartition;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;

/**
 * DescribeLogDirs for a broker with one log directory, the data directory: the volume's size and
 * free space, and each partition's bytes of log (the sum of its segment sizes). Runs on the I/O
 * executor because measuring the volume is a filesystem call.
 */
public final class LogDirsService implements LogDirsUseCase {
    private static final Comparator<PartitionSize> ORDER = Comparator
            .comparing((PartitionSize s) -> s.partition().topic()).thenComparingInt(s -> s.partition().partition());

    private final TopicService topics;
    private final LogEngine engine;
    private final Executor io;

    public LogDirsService(TopicService topics, LogEngine engine, Executor io) {
        this.topics = topics;
        this.engine = engine;
        this.io = io;
    }

    @Override
    public CompletionStage<List<LogDir>> describe(Set<TopicPartition> partitions) {
        return CompletableFuture.supplyAsync(() -> {
            LogEngine.LogDir dir = engine.logDir();
            List<PartitionSize> sizes = topics.logs().stream()
                    .filter(log -> partitions == null || partitions.contains(log.topicPartition()))
                    .map(log -> new PartitionSize(log.topicPartition(), log.sizeInBytes()))
                    .sorted(ORDER)
                    .toList();
            return List.of(new LogDir(dir.path(), KafkaError.NONE, dir.totalBytes(), dir.usableBytes(), sizes));
        }, io);
    }
}
