package io.kaas.domain.txn;

import io.kaas.domain.topic.TopicPartition;
import java.util.Set;

/**
 * A change to a {@link Transaction}: handling a command emits these and
 * {@link Transaction#apply} is the only place they take effect. Each carries the time it happened
 * at ({@code atMs}), which becomes the transaction's last update time.
 */
public sealed interface TxnEvent {

    long atMs();

    /**
     * InitProducerId: the producer id and epoch the producer will use (an epoch bump, or a fresh
     * producer id at epoch 0 when the epochs ran out); the state returns to Empty.
     *
     * @param lastProducerEpoch the epoch before, kept when the caller named its current one (KIP-360)
     *                          so a retry of this call is recognised; -1 otherwise
     */
    record ProducerIdAssigned(long producerId, long lastProducerId, short producerEpoch, short lastProducerEpoch,
                              int timeoutMs, long atMs) implements TxnEvent {
    }

    /** AddPartitionsToTxn / AddOffsetsToTxn: partitions and groups join the transaction (Ongoing). */
    record Enlisted(Set<TopicPartition> partitions, Set<String> groups, long startMs, long atMs) implements TxnEvent {
        public Enlisted {
            partitions = Set.copyOf(partitions);
            groups = Set.copyOf(groups);
        }
    }

    /**
     * EndTxn, the timeout, or a fence: the outcome is decided (Prepare*), the partition and group
     * lists kept as the markers still owed. A fence or timeout bumps the epoch ({@code producerEpoch}).
     */
    record EndPrepared(boolean commit, short producerEpoch, short lastProducerEpoch, long atMs) implements TxnEvent {
    }

    /** Every marker and the offset hooks are durable: Complete*, lists cleared. */
    record EndCompleted(long atMs) implements TxnEvent {
    }

    /** The idle transactional id expired. */
    record Expired(long atMs) implements TxnEvent {
    }
}
