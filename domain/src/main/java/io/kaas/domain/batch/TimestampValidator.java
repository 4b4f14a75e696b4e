package io.kaas.domain.batch;

import io.kaas.domain.error.KafkaError;
import java.util.Optional;

/**
 * The timestamp checks Apache's broker makes on a produced batch ({@code LogValidator}), from the
 * header alone: a CreateTime timestamp must lie within {@code [now - beforeMaxMs, now + afterMaxMs]},
 * and producers may not send LogAppendTime batches to a LogAppendTime topic.
 *
 * <p>Apache checks every record; kaas checks the two record timestamps the header holds, the first
 * record's (base timestamp) and the largest (max timestamp). Both are real record timestamps, so
 * every batch refused here is one Apache refuses too; a batch whose out-of-range record is neither
 * the first nor the newest passes here where Apache would refuse it.
 */
public final class TimestampValidator {
    /** Apache's {@code RecordBatch.NO_TIMESTAMP}: the record carries no timestamp and is not checked. */
    public static final long NO_TIMESTAMP = -1L;
    /** The partition-level message of Apache's {@code InvalidTimestampException} for a produce. */
    public static final String MESSAGE = "One or more records have been rejected due to invalid timestamp";

    private TimestampValidator() {
    }

    /**
     * @param logAppendTimeTopic whether the topic's {@code message.timestamp.type} is LogAppendTime
     * @param beforeMaxMs        how far in the past a CreateTime timestamp may be
     * @param afterMaxMs         how far in the future a CreateTime timestamp may be
     * @return INVALID_TIMESTAMP when the batch must be refused
     */
    public static Optional<BatchValidator.Rejection> validate(RecordBatchHeader batch, boolean logAppendTimeTopic,
                                                              long beforeMaxMs, long afterMaxMs, long nowMs) {
        if (batch.isLogAppendTime()) {
            // Every record of a LogAppendTime batch reads the max timestamp; Apache refuses such a batch unless the
            // topic is CreateTime and that timestamp is a valid one.
            if (logAppendTimeTopic || batch.maxTimestamp() == NO_TIMESTAMP
                    || outOfRange(batch.maxTimestamp(), beforeMaxMs, afterMaxMs, nowMs)) {
                return reject();
            }
            return Optional.empty();
        }
        if (logAppendTimeTopic) {
            return Optional.empty(); // the broker's own time replaces whatever the producer sent
        }
        if (outOfRange(batch.baseTimestamp(), beforeMaxMs, afterMaxMs, nowMs)
                || outOfRange(batch.maxTimestamp(), beforeMaxMs, afterMaxMs, nowMs)) {
            return reject();
        }
        return Optional.empty();
    }

    private static boolean outOfRange(long timestamp, long beforeMaxMs, long afterMaxMs, long nowMs) {
        if (timestamp == NO_TIMESTAMP) {
            return false;
        }
        long difference = nowMs - timestamp;
        return difference > beforeMaxMs || -difference > afterMaxMs;
    }

    private static Optional<BatchValidator.Rejection> reject() {
        return Optional.of(new BatchValidator.Rejection(KafkaError.INVALID_TIMESTAMP, MESSAGE));
    }
}
