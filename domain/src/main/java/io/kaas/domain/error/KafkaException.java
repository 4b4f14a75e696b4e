package io.kaas.domain.error;

/**
 * A failure the client must see as a Kafka error code (with an optional message), thrown where a
 * use case cannot return an error value directly.
 */
public final class KafkaException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final KafkaError error;

    public KafkaException(KafkaError error, String message) {
        super(message);
        this.error = error;
    }

    public KafkaError error() {
        return error;
    }
}
