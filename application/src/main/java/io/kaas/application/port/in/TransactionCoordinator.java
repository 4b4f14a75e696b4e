package io.kaas.application.port.in;

import io.kaas.domain.error.KafkaError;
import io.kaas.domain.topic.TopicPartition;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletionStage;

/**
 * The transaction coordinator (KIP-98, KIP-360, KIP-447, KIP-664): the transactional producer's
 * requests, and the admin views of its state. A request for a transactional id this broker does
 * not coordinate is answered NOT_COORDINATOR. Every stage completes once what it changed is
 * durable; nothing blocks the caller.
 */
public interface TransactionCoordinator {

    /**
     * InitProducerId for a transactional id (non-empty): its producer id and a new epoch.
     *
     * @param expected the caller's current producer id and epoch (InitProducerId v3+), or null
     */
    CompletionStage<InitProducerIdResult> initProducerId(String transactionalId, int transactionTimeoutMs,
                                                         ExpectedProducer expected);

    /**
     * AddPartitionsToTxn: one error per partition. A partition that does not exist fails the whole
     * request (UNKNOWN_TOPIC_OR_PARTITION for it, OPERATION_NOT_ATTEMPTED for the others).
     */
    CompletionStage<Map<TopicPartition, KafkaError>> addPartitions(String transactionalId, long producerId,
                                                                   short producerEpoch, Set<TopicPartition> partitions);

    /** AddPartitionsToTxn v4 {@code verify_only}: whether each partition is in the transaction, changing nothing. */
    CompletionStage<Map<TopicPartition, KafkaError>> verifyPartitions(String transactionalId, long producerId,
                                                                      short producerEpoch, Set<TopicPartition> partitions);

    /** AddOffsetsToTxn: the group whose offsets the transaction will commit. */
    CompletionStage<KafkaError> addOffsets(String transactionalId, long producerId, short producerEpoch, String groupId);

    /**
     * EndTxn: answered once every marker is durable and the staged offsets are committed (or
     * dropped), or with the error.
     */
    CompletionStage<KafkaError> endTxn(String transactionalId, long producerId, short producerEpoch, boolean commit);

    /** DescribeTransactions, one answer per id in request order. */
    CompletionStage<List<TransactionDescription>> describe(List<String> transactionalIds);

    /**
     * ListTransactions: the transactional ids this broker coordinates, filtered by state display
     * name and producer id (empty filters match everything).
     */
    CompletionStage<ListResult> list(Set<String> states, Set<Long> producerIds);

    /** The producer id and epoch an InitProducerId v3+ caller says it has. */
    record ExpectedProducer(long producerId, short producerEpoch) {
    }

    record InitProducerIdResult(KafkaError error, long producerId, short producerEpoch) {
        public static InitProducerIdResult failed(KafkaError error) {
            return new InitProducerIdResult(error, -1L, (short) -1);
        }
    }

    /**
     * A transaction as DescribeTransactions shows it; {@code state} is the display name.
     *
     * @param startMs when the transaction in progress began, -1 when none
     */
    record TransactionDescription(String transactionalId, KafkaError error, String state, long producerId,
                                  short producerEpoch, int timeoutMs, long startMs, List<TopicPartition> partitions) {
        public static TransactionDescription failed(String transactionalId, KafkaError error) {
            return new TransactionDescription(transactionalId, error, "", -1L, (short) -1, -1, -1L, List.of());
        }
    }

    record ListedTransaction(String transactionalId, long producerId, String state) {
    }

    /** {@code unknownStates}: requested filter states that do not exist (Apache reports them). */
    record ListResult(KafkaError error, List<String> unknownStates, List<ListedTransaction> transactions) {
    }
}
