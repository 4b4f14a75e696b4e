package io.kaas.application.cluster;

import io.kaas.application.log.PartitionLog;
import io.kaas.application.port.in.ClusterUseCase;
import io.kaas.application.port.in.MetadataUseCase;
import io.kaas.application.port.in.TopicAdminUseCase;
import io.kaas.application.topic.TopicService;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.topic.Topic;
import io.kaas.domain.topic.TopicNames;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;

/** Answers Metadata: topics, partitions and leaders, with Apache's auto-creation of unknown topics. */
public final class MetadataService implements MetadataUseCase {
    private final TopicService topics;
    private final ClusterUseCase cluster;
    private final BrokerSettings settings;
    private final Executor io;

    /** @param io where topics are created: creating fsyncs files */
    public MetadataService(TopicService topics, ClusterUseCase cluster, BrokerSettings settings, Executor io) {
        this.topics = topics;
        this.cluster = cluster;
        this.settings = settings;
        this.io = io;
    }

    @Override
    public List<TopicMetadata> describe(List<String> names) {
        if (names == null) {
            return topics.all().stream().sorted(Comparator.comparing(Topic::name)).map(this::describe).toList();
        }
        return describe(names, false);
    }

    @Override
    public CompletionStage<List<TopicMetadata>> describeOrCreate(List<String> names) {
        boolean creates = settings.autoCreateTopics() && names.stream()
                .anyMatch(name -> topics.byName(name).isEmpty() && TopicNames.validate(name).isEmpty());
        return creates ? CompletableFuture.supplyAsync(() -> describe(names, true), io)
                : CompletableFuture.completedFuture(describe(names, false));
    }

    private List<TopicMetadata> describe(List<String> names, boolean create) {
        List<TopicMetadata> out = new ArrayList<>(names.size());
        for (String name : names) {
            Optional<Topic> topic = topics.byName(name);
            if (topic.isEmpty() && TopicNames.validate(name).isPresent()) {
                // As Apache: an illegal name is INVALID_TOPIC_EXCEPTION whether or not auto-creation is on.
                out.add(TopicMetadata.failed(name, KafkaError.INVALID_TOPIC_EXCEPTION));
                continue;
            }
            if (topic.isEmpty() && create) {
                topic = autoCreate(name, out);
                if (topic.isEmpty()) {
                    continue;
                }
            }
            out.add(topic.map(this::describe)
                    .orElseGet(() -> TopicMetadata.failed(name, KafkaError.UNKNOWN_TOPIC_OR_PARTITION)));
        }
        return out;
    }

    /** Creates the topic; a name that cannot be created is reported in {@code out} with the reason. */
    private Optional<Topic> autoCreate(String name, List<TopicMetadata> out) {
        TopicAdminUseCase.CreateResult created = topics.create(new TopicAdminUseCase.CreateCommand(name,
                TopicAdminUseCase.DEFAULT, TopicAdminUseCase.DEFAULT, Map.of(), Map.of(), false));
        if (created.error() == KafkaError.NONE) {
            return Optional.of(created.topic());
        }
        if (created.error() == KafkaError.TOPIC_ALREADY_EXISTS) {
            return topics.byName(name); // created concurrently by another request
        }
        out.add(TopicMetadata.failed(name, created.error()));
        return Optional.empty();
    }

    private TopicMetadata describe(Topic topic) {
        List<PartitionMetadata> partitions = new ArrayList<>(topic.partitionCount());
        for (int p = 0; p < topic.partitionCount(); p++) {
            int leader = cluster.leaderOf(topic.name(), p);
            if (leader < 0) {
                partitions.add(new PartitionMetadata(p, KafkaError.LEADER_NOT_AVAILABLE, -1, -1, List.of()));
                continue;
            }
            int partition = p;
            int epoch = cluster.leaderEpochOf(topic.name(), p).orElseGet(
                    () -> topics.log(topic.partition(partition)).map(PartitionLog::leaderEpoch).orElse(0));
            partitions.add(new PartitionMetadata(p, leader, epoch, List.of(leader)));
        }
        return new TopicMetadata(topic.name(), topic.id(), KafkaError.NONE, partitions);
    }
}
