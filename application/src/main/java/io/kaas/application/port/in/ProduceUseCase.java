package io.kaas.application.port.in;

import io.kaas.domain.error.KafkaError;
import io.kaas.domain.topic.TopicPartition;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;

/** Appends produced batches to partition logs. */
public interface ProduceUseCase {

    /**
     * Appends each partition's records. The stage completes when the {@code acks} contract is met:
     * at once for 0 and 1, after an fsync covers every batch for -1 (or with REQUEST_TIMED_OUT
     * after {@code timeoutMs}). The buffers may be released once the stage completes.
     */
    CompletionStage<List<PartitionResult>> produce(Command command);

    /**
     * @param transactionalId the request's, null for a non-transactional producer
     * @param span            the request's trace span: each partition's append and fsync wait are its children
     * @param handOffAt       where the caller's thread runs its queued work once its current burst is done (an
     *                        event loop, after the reads of this tick): the appends of every request it decoded
     *                        meanwhile then leave in one hand-off to the I/O threads; null hands them off at once
     */
    record Command(String transactionalId, short acks, int timeoutMs, List<PartitionRecords> partitions,
                   TraceSpan span, Executor handOffAt) {
        public Command(String transactionalId, short acks, int timeoutMs, List<PartitionRecords> partitions,
                       TraceSpan span) {
            this(transactionalId, acks, timeoutMs, partitions, span, null);
        }

        public Command(String transactionalId, short acks, int timeoutMs, List<PartitionRecords> partitions) {
            this(transactionalId, acks, timeoutMs, partitions, TraceSpan.NONE);
        }

        public Command(short acks, int timeoutMs, List<PartitionRecords> partitions) {
            this(null, acks, timeoutMs, partitions);
        }
    }

    /** The opaque batch bytes sent for one partition. */
    record PartitionRecords(TopicPartition partition, ByteBuffer records) {
    }

    /**
     * @param recordErrors the records of the batch that caused an INVALID_RECORD, by their index in it
     */
    record PartitionResult(TopicPartition partition, KafkaError error, String message, long baseOffset,
                           long logAppendTimeMs, long logStartOffset, List<RecordError> recordErrors) {

        public PartitionResult {
            recordErrors = List.copyOf(recordErrors);
        }

        public PartitionResult(TopicPartition partition, KafkaError error, String message, long baseOffset,
                               long logAppendTimeMs, long logStartOffset) {
            this(partition, error, message, baseOffset, logAppendTimeMs, logStartOffset, List.of());
        }

        public static PartitionResult failed(TopicPartition partition, KafkaError error, String message) {
            return new PartitionResult(partition, error, message, -1L, -1L, -1L);
        }
    }

    /** Why one record of a batch was refused: its index in the batch and the message (Produce v8+). */
    record RecordError(int batchIndex, String message) {
    }
}
