package io.kaas.application.topic;

import io.kaas.application.log.LogEngine;
import io.kaas.application.log.PartitionLog;
import io.kaas.application.port.in.LogDirsUseCase;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.topic.TopicPartition;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;

/**
 * DescribeLogDirs and AlterReplicaLogDirs over the engine's log dirs: every dir with its volume's size and free
 * space, each partition under the dir holding it with its bytes of log (the sum of its segment sizes), and a
 * partition being moved also under its target, as Apache's future replica. Runs on the I/O executor because
 * measuring a volume and finding a placement are filesystem calls.
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
            Map<String, List<PartitionSize>> byDir = new LinkedHashMap<>();
            List<LogEngine.LogDir> dirs = engine.logDirs();
            dirs.forEach(dir -> byDir.put(dir.path(), new ArrayList<>()));
            for (PartitionLog log : topics.logs()) {
                TopicPartition tp = log.topicPartition();
                if (partitions != null && !partitions.contains(tp)) {
                    continue;
                }
                Optional<String> dir = engine.logDirOf(tp);
                dir.map(byDir::get).ifPresent(sizes -> sizes.add(new PartitionSize(tp, log.sizeInBytes())));
                engine.futureLogOf(tp).ifPresent(future -> Optional.ofNullable(byDir.get(future.path()))
                        .ifPresent(sizes -> sizes.add(new PartitionSize(tp, future.sizeBytes(), future.offsetLag(),
                                true))));
            }
            return dirs.stream().map(dir -> new LogDir(dir.path(), KafkaError.NONE, dir.totalBytes(),
                    dir.usableBytes(), byDir.get(dir.path()).stream().sorted(ORDER).toList())).toList();
        }, io);
    }

    @Override
    public CompletionStage<Map<TopicPartition, KafkaError>> alter(Map<TopicPartition, String> destinations) {
        return CompletableFuture.supplyAsync(() -> {
            Map<TopicPartition, KafkaError> results = new LinkedHashMap<>();
            destinations.forEach((tp, path) -> results.put(tp, topics.moveLog(tp, path)));
            return results;
        }, io);
    }
}
