package io.kaas.application.port.in;

import java.util.concurrent.CompletionStage;

/** Hands out producer ids for idempotent producers. */
public interface ProducerIdUseCase {
    /**
     * A producer id never issued before, by any broker or any earlier run of this one. Usually
     * complete on return; when this broker's block runs out, once the next block is persisted.
     */
    CompletionStage<Long> newProducerId();
}
