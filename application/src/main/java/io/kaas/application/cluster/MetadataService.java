package io.kaas.application.cluster;

import io.kaas.application.log.PartitionLog;
import io.kaas.application.port.in.ClusterUseCase;
import io.kaas.application.port.in.MetadataUseCase;
import io.kaas.application.port.in.TopicAdminUseCase;
import io.kaas.application.topic.StandaloneTopicAdmin;
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

/**
 * Answers Metadata: topics, partitions and leaders, with Apache's auto-creation of unknown topics. A topic whose
 * creation is not served at once (a cluster's, which the operator materialises) is answered LEADER_NOT_AVAILABLE, as
 * Apache answers while its controller creates it; the client asks again.
 */
public final class MetadataService implements MetadataUseCase {
    private final TopicService topics;
    private final TopicAdminUseCase admin;
    private final ClusterUseCase cluster;
    private final BrokerSettings settings;
    private final Executor io;

    /** A broker that creates its own topics. */
    public MetadataService(TopicService topics, ClusterUseCase cluster, BrokerSettings settings, Executor io) {
        this(topics, new StandaloneTopicAdmin(topics), cluster, settings, io);
    }

    /**
     * @param admin where auto-created topics are created
     * @param io    where topics are created: creating fsyncs files, or waits on the API server
     */
    public MetadataService(TopicService topics, TopicAdminUseCase admin, ClusterUseCase cluster,
                           BrokerSettings settings, Executor io) {
        this.topics = topics;
        this.admin = admin;
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

    @Override
    public boolean createsTopics() {
        return settings.autoCreateTopics();
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

    /**
     * Creates the topic without waiting for it to be served; a name that cannot be created, or whose creation is not
     * served yet, is reported in {@code out}.
     */
    private Optional<Topic> autoCreate(String name, List<TopicMetadata> out) {
        TopicAdminUseCase.CreateResult created = admin.create(new TopicAdminUseCase.CreateCommand(name,
                TopicAdminUseCase.DEFAULT, TopicAdminUseCase.DEFAULT, Map.of(), Map.of(), false), 0)
                .toCompletableFuture().getNow(null);
        KafkaError error = created == null ? KafkaError.REQUEST_TIMED_OUT : created.error();
        if (error == KafkaError.NONE || error == KafkaError.TOPIC_ALREADY_EXISTS || error == KafkaError.REQUEST_TIMED_OUT) {
            Optional<Topic> served = topics.byName(name); // created by this request or concurrently by another
            if (served.isEmpty()) {
                out.add(TopicMetadata.failed(name, KafkaError.LEADER_NOT_AVAILABLE));
            }
            return served;
        }
        out.add(TopicMetadata.failed(name, error));
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
