package io.kaas.application.memory;

import io.kaas.application.port.out.ProducerIdBlockStore;

/** A producer-id block end kept in memory ({@code KAAS_STORAGE=memory}, tests). */
public final class InMemoryProducerIdBlockStore implements ProducerIdBlockStore {
    private volatile long blockEnd;

    @Override
    public long load() {
        return blockEnd;
    }

    @Override
    public void persist(long end) {
        blockEnd = end;
    }
}
