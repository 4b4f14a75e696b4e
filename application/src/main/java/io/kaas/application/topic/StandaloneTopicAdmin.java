package io.kaas.application.topic;

import io.kaas.application.port.in.MutationQuota;
import io.kaas.application.port.in.Outcome;
import io.kaas.application.port.in.TopicAdminUseCase;
import io.kaas.domain.topic.Topic;
import java.util.Collection;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The topic admin APIs of a broker that writes its own topics (standalone and memory mode): every write is done, and
 * served, when {@link TopicService} returns, so no timeout is ever reached.
 */
public final class StandaloneTopicAdmin implements TopicAdminUseCase {
    private final TopicService topics;

    public StandaloneTopicAdmin(TopicService topics) {
        this.topics = topics;
    }

    @Override
    public CompletionStage<CreateResult> create(CreateCommand command, long timeoutMs, MutationQuota quota) {
        return CompletableFuture.completedFuture(topics.create(command, quota));
    }

    @Override
    public CompletionStage<Outcome> createPartitions(CreatePartitionsCommand command, long timeoutMs,
                                                     MutationQuota quota) {
        return CompletableFuture.completedFuture(topics.createPartitions(command, quota));
    }

    @Override
    public CompletionStage<DeleteResult> deleteByName(String name, long timeoutMs, MutationQuota quota) {
        return CompletableFuture.completedFuture(topics.deleteByName(name, quota));
    }

    @Override
    public CompletionStage<DeleteResult> deleteById(UUID id, long timeoutMs, MutationQuota quota) {
        return CompletableFuture.completedFuture(topics.deleteById(id, quota));
    }

    @Override
    public Optional<Topic> byName(String name) {
        return topics.byName(name);
    }

    @Override
    public Optional<Topic> byId(UUID id) {
        return topics.byId(id);
    }

    @Override
    public Collection<Topic> all() {
        return topics.all();
    }
}
