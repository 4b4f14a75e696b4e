package io.kaas.application.port.in;

/** Hands out producer ids for idempotent producers. */
public interface ProducerIdUseCase {
    /** A producer id never issued before, by any broker or any earlier run of this one. */
    long newProducerId();
}
