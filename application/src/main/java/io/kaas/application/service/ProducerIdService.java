package io.kaas.application.service;

import io.kaas.application.port.in.ProducerIdUseCase;
import io.kaas.application.port.out.ProducerIdBlockStore;
import io.kaas.domain.producer.ProducerIdBlocks;
import java.util.OptionalLong;

/** Issues producer ids from this broker's slice of the id space, persisting each block before use. */
public final class ProducerIdService implements ProducerIdUseCase {
    private final ProducerIdBlockStore store;
    private final ProducerIdBlocks blocks;

    public ProducerIdService(int brokerId, ProducerIdBlockStore store) {
        this.store = store;
        this.blocks = new ProducerIdBlocks(brokerId, store.load());
    }

    @Override
    public synchronized long newProducerId() {
        OptionalLong pid = blocks.next();
        if (pid.isEmpty()) {
            long end = blocks.nextBlockEnd();
            store.persist(end);
            blocks.blockPersisted(end);
            pid = blocks.next();
        }
        return pid.getAsLong();
    }
}
