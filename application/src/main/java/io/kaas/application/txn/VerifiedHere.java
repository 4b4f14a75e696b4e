package io.kaas.application.txn;

import io.kaas.application.port.in.ClusterUseCase;
import io.kaas.application.port.out.TransactionVerifier;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.topic.TopicPartition;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * KIP-890 verification in a cluster without broker-to-broker requests yet: a transactional id
 * coordinated by this broker is verified by its coordinator here; one coordinated elsewhere is let
 * through unverified, as with Apache's {@code transaction.partition.verification.enable=false}
 * (until the partition leader can ask the remote coordinator).
 */
public final class VerifiedHere implements TransactionVerifier {
    private final ClusterUseCase cluster;
    private final TransactionVerifier local;

    public VerifiedHere(ClusterUseCase cluster, TransactionVerifier local) {
        this.cluster = cluster;
        this.local = local;
    }

    @Override
    public CompletionStage<Map<TopicPartition, KafkaError>> verifyPartitions(String transactionalId, long producerId,
                                                                            short producerEpoch,
                                                                            Set<TopicPartition> partitions) {
        if (coordinatedHere(transactionalId)) {
            return local.verifyPartitions(transactionalId, producerId, producerEpoch, partitions);
        }
        Map<TopicPartition, KafkaError> unverified = new HashMap<>();
        partitions.forEach(tp -> unverified.put(tp, KafkaError.NONE));
        return CompletableFuture.completedFuture(unverified);
    }

    @Override
    public CompletionStage<KafkaError> verifyGroup(String transactionalId, long producerId, short producerEpoch,
                                                   String groupId) {
        return coordinatedHere(transactionalId) ? local.verifyGroup(transactionalId, producerId, producerEpoch, groupId)
                : CompletableFuture.completedFuture(KafkaError.NONE);
    }

    private boolean coordinatedHere(String transactionalId) {
        Optional<ClusterUseCase.Broker> coordinator = cluster.transactionCoordinator(transactionalId);
        return coordinator.isEmpty() || coordinator.get().id() == cluster.self().id();
    }
}
