package io.kaas.application.producer;

import io.kaas.application.port.in.ProducerIdUseCase;
import io.kaas.application.port.out.ProducerIdBlockStore;
import io.kaas.domain.producer.ProducerIdBlocks;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;

/**
 * Issues producer ids from this broker's slice of the id space, persisting each block before use.
 * Persisting fsyncs a file, so {@link #newProducerId} does it on the I/O executor; callers already on
 * an I/O thread (the transaction coordinator) use {@link #allocate}.
 */
public final class ProducerIdService implements ProducerIdUseCase {
    private final ProducerIdBlockStore store;
    private final ProducerIdBlocks blocks;
    private final Executor io;

    public ProducerIdService(int brokerId, ProducerIdBlockStore store, Executor io) {
        this.store = store;
        this.blocks = new ProducerIdBlocks(brokerId, store.load());
        this.io = io;
    }

    @Override
    public CompletionStage<Long> newProducerId() {
        synchronized (this) {
            OptionalLong pid = blocks.next();
            if (pid.isPresent()) {
                return CompletableFuture.completedFuture(pid.getAsLong());
            }
        }
        return CompletableFuture.supplyAsync(this::allocate, io);
    }

    /** The next producer id, persisting a new block first when the current one is used up: blocks on the file. */
    public synchronized long allocate() {
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
