package io.kaas.domain.idempotence;

import io.kaas.domain.error.KafkaError;

/** The outcome of classifying a produced batch against its producer's dedupe window. */
public sealed interface SequenceCheck {

    /** Append the batch. */
    record Accept() implements SequenceCheck {
    }

    /** A retry of a batch already in the log: answer with its original offsets, write nothing. */
    record Duplicate(BatchMetadata original) implements SequenceCheck {
    }

    /** Refuse the batch with this error. */
    record Reject(KafkaError error, String message) implements SequenceCheck {
    }

    SequenceCheck ACCEPT = new Accept();
}
