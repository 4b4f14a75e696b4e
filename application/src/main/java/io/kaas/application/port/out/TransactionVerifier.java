package io.kaas.application.port.out;

import io.kaas.domain.error.KafkaError;
import io.kaas.domain.topic.TopicPartition;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletionStage;

/**
 * Asks a transactional id's coordinator whether partitions (or a group's offsets) are part of the
 * producer's transaction in progress, before transactional data or offsets are written there
 * (KIP-890's verification, on by default in Apache 3.7). The coordinator may be this broker or,
 * in a cluster, another one.
 */
public interface TransactionVerifier {

    /**
     * One error per partition: NONE when it was added to the transaction, INVALID_TXN_STATE when
     * not, or the coordinator's refusal (INVALID_PRODUCER_ID_MAPPING, PRODUCER_FENCED,
     * CONCURRENT_TRANSACTIONS, NOT_COORDINATOR, COORDINATOR_LOAD_IN_PROGRESS, …) for all.
     */
    CompletionStage<Map<TopicPartition, KafkaError>> verifyPartitions(String transactionalId, long producerId,
                                                                     short producerEpoch, Set<TopicPartition> partitions);

    /** The same for a consumer group whose offsets the producer stages (TxnOffsetCommit). */
    CompletionStage<KafkaError> verifyGroup(String transactionalId, long producerId, short producerEpoch, String groupId);
}
