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

    /**
     * The code for a transactional API's answer at {@code version}: clients older than the version
     * that introduced PRODUCER_FENCED (KIP-588) get INVALID_PRODUCER_EPOCH instead, which they
     * handle the same way - what Apache's broker does.
     */
    public static short producerFencedAware(KafkaError error, short version, int firstFencedVersion) {
        if (error == KafkaError.PRODUCER_FENCED && version < firstFencedVersion) {
            return KafkaError.INVALID_PRODUCER_EPOCH.code();
        }
        return error.code();
    }
}
