package io.kaas.application.log;

import io.kaas.domain.error.KafkaError;
import java.util.concurrent.CompletionStage;

/** What became of one batch handed to {@link PartitionLog#append}. */
public sealed interface AppendResult {

    /**
     * Written at {@code baseOffset}; {@code durable} completes once an fsync covers the batch (at once
     * for the memory log), exceptionally if the log cannot make it durable.
     */
    record Appended(long baseOffset, long logAppendTimeMs, long logStartOffset, CompletionStage<Void> durable)
            implements AppendResult {
    }

    /** A producer retry of a batch already in the log; nothing was written. */
    record Duplicate(long baseOffset, long logStartOffset) implements AppendResult {
    }

    /** Refused; nothing was written. */
    record Rejected(KafkaError error, String message) implements AppendResult {
    }
}
