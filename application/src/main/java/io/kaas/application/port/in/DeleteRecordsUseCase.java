package io.kaas.application.port.in;

import io.kaas.domain.error.KafkaError;
import io.kaas.domain.topic.TopicPartition;
import java.util.List;
import java.util.concurrent.CompletionStage;

/** Advances partitions' log start offsets on request (DeleteRecords, {@code kafka-delete-records}). */
public interface DeleteRecordsUseCase {
    /** The offset that means "up to the high watermark". */
    long HIGH_WATERMARK = -1L;

    CompletionStage<List<Result>> deleteRecords(List<Request> requests);

    record Request(TopicPartition partition, long offset) {
    }

    /** {@code lowWatermark} is the partition's log start offset afterwards, -1 on error. */
    record Result(TopicPartition partition, KafkaError error, long lowWatermark) {
    }
}
