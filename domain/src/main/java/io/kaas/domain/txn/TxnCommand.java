package io.kaas.domain.txn;

import io.kaas.domain.error.KafkaError;
import io.kaas.domain.topic.TopicPartition;
import java.util.Set;

/**
 * What a {@link Transaction} is asked to do, each with the type of its response.
 *
 * @param <R> the response type
 */
public sealed interface TxnCommand<R> {

    /**
     * InitProducerId for the transactional id.
     *
     * @param expected        the producer id and epoch the caller says it has (InitProducerId v3+, KIP-360), or null
     * @param freshProducerId a newly allocated producer id, for when the epochs of the current one ran out;
     *                        -1 when none was allocated (the response then asks for one)
     */
    record InitProducerId(int timeoutMs, ProducerIdAndEpoch expected, long freshProducerId)
            implements TxnCommand<InitResult> {
    }

    /** AddPartitionsToTxn. */
    record AddPartitions(long producerId, short producerEpoch, Set<TopicPartition> partitions)
            implements TxnCommand<KafkaError> {
        public AddPartitions {
            partitions = Set.copyOf(partitions);
        }
    }

    /** AddOffsetsToTxn: the group whose offsets the transaction will commit. */
    record AddGroup(long producerId, short producerEpoch, String groupId)
            implements TxnCommand<KafkaError> {
    }

    /**
     * EndTxn. {@code fromClient} is false for the coordinator's own aborts (a fence), which may use
     * an epoch newer than the transaction's.
     */
    record EndTxn(long producerId, short producerEpoch, boolean commit, boolean fromClient)
            implements TxnCommand<EndResult> {
    }

    /** Every marker of the prepared transaction is durable, and so are its offsets. */
    record CompleteEnd() implements TxnCommand<KafkaError> {
    }

    /** The reaper's question: has this Ongoing transaction outlived its timeout? If so it is aborted. */
    record AbortIfTimedOut() implements TxnCommand<Boolean> {
    }

    /** Whether the idle transactional id has gone unused for {@code expirationMs}; if so it expires. */
    record ExpireIfIdle(long expirationMs) implements TxnCommand<Boolean> {
    }
}
