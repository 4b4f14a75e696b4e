package io.kaas.application.port.in;

import io.kaas.domain.error.KafkaError;

/**
 * How an admin operation on one resource ended: NONE, or an error with Apache's message (which may
 * be null, as Apache sends for some errors).
 */
public record Outcome(KafkaError error, String message) {
    public static final Outcome OK = new Outcome(KafkaError.NONE, null);

    public boolean succeeded() {
        return error == KafkaError.NONE;
    }
}
