package io.kaas.domain.batch;

import io.kaas.domain.error.KafkaError;
import java.nio.ByteBuffer;
import java.util.Optional;

/**
 * Header-only checks Apache's broker makes on a produced batch before it is appended
 * ({@code ProduceRequest.validateRecords} and {@code LogValidator.validateBatch}): exactly one
 * magic-v2 batch per partition, a consistent offset range and count, a valid CRC32C, no control
 * batches from clients, and a sequence whenever there is a producer id.
 */
public final class BatchValidator {
    private BatchValidator() {
    }

    /** The rejection for the produced bytes, or empty when they hold one valid batch. */
    public static Optional<Rejection> validateProduced(ByteBuffer records) {
        int size = records.remaining();
        if (size < RecordBatchHeader.HEADER_SIZE) {
            return reject(KafkaError.INVALID_RECORD, "Produce requests must contain exactly one record batch per partition");
        }
        RecordBatchHeader header = RecordBatchHeader.at(records);
        if (header.magic() != RecordBatchHeader.MAGIC_V2) {
            return reject(KafkaError.INVALID_RECORD, "Produce requests with version 3+ are only allowed to contain record "
                    + "batches with magic version 2");
        }
        if (header.batchLength() < RecordBatchHeader.HEADER_SIZE - RecordBatchHeader.LOG_OVERHEAD
                || header.sizeInBytes() > size) {
            return reject(KafkaError.CORRUPT_MESSAGE, "Record batch size " + header.sizeInBytes()
                    + " does not fit the " + size + " bytes sent");
        }
        if (header.sizeInBytes() != size) {
            return reject(KafkaError.INVALID_RECORD, "Produce requests with version 3+ are only allowed to contain "
                    + "exactly one record batch per partition");
        }
        if (header.computeCrc() != header.storedCrc()) {
            return reject(KafkaError.CORRUPT_MESSAGE, "Record batch is corrupt (stored crc = " + header.storedCrc()
                    + ", computed crc = " + header.computeCrc() + ")");
        }
        int count = header.recordsCount();
        if (header.lastOffsetDelta() < 0 || count <= 0 || count != header.lastOffsetDelta() + 1) {
            return reject(KafkaError.INVALID_RECORD, "Inconsistent batch offset range and record count: lastOffsetDelta "
                    + header.lastOffsetDelta() + ", count " + count);
        }
        if (header.isControlBatch()) {
            return reject(KafkaError.INVALID_RECORD, "Clients are not allowed to write control records");
        }
        if (header.hasProducerId() && header.baseSequence() < 0) {
            return reject(KafkaError.INVALID_RECORD, "Invalid sequence number " + header.baseSequence()
                    + " for a batch with producer id " + header.producerId());
        }
        return Optional.empty();
    }

    private static Optional<Rejection> reject(KafkaError error, String message) {
        return Optional.of(new Rejection(error, message));
    }

    /** Why a batch was refused. */
    public record Rejection(KafkaError error, String message) {
    }
}
