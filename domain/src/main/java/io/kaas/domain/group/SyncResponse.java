package io.kaas.domain.group;

import io.kaas.domain.error.KafkaError;

/** The answer to a SyncGroup: the member's assignment for the generation, or an error. */
public record SyncResponse(KafkaError error, String protocolType, String protocolName, byte[] assignment) {

    public static SyncResponse failed(KafkaError error) {
        return new SyncResponse(error, null, null, new byte[0]);
    }
}
