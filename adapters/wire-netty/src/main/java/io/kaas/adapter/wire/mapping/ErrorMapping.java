package io.kaas.adapter.wire.mapping;

import io.kaas.domain.error.KafkaError;
import org.apache.kafka.common.protocol.Errors;

/** Between the domain's error codes and kafka-clients' {@link Errors}. */
public final class ErrorMapping {
    private ErrorMapping() {
    }

    public static Errors toErrors(KafkaError error) {
        return Errors.forCode(error.code());
    }
}
