package io.kaas.application.producer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.application.fake.QueuedExecutor;
import io.kaas.application.memory.InMemoryProducerIdBlockStore;
import io.kaas.application.port.out.ProducerIdBlockStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class ProducerIdServiceTest {
    private static final long SPACE = 1L << 40;

    private final InMemoryProducerIdBlockStore store = new InMemoryProducerIdBlockStore();

    @Test
    void persistsTheBlockBeforeHandingOutItsFirstId() {
        List<Long> persistedWhenAsked = new ArrayList<>();
        ProducerIdBlockStore watching = new ProducerIdBlockStore() {
            @Override
            public long load() {
                return store.load();
            }

            @Override
            public void persist(long blockEnd) {
                store.persist(blockEnd);
                persistedWhenAsked.add(blockEnd);
            }
        };
        QueuedExecutor io = new QueuedExecutor();
        ProducerIdService service = new ProducerIdService(2, watching, io);
        assertThat(persistedWhenAsked).as("nothing persisted before the first request").isEmpty();

        CompletableFuture<Long> first = service.newProducerId().toCompletableFuture();

        assertThat(first).as("the block is persisted on the I/O executor, not by the caller").isNotDone();
        assertThat(persistedWhenAsked).isEmpty();
        io.runAll();
        assertThat(first).isCompletedWithValue(3 * SPACE);
        assertThat(persistedWhenAsked).containsExactly(1000L);
        assertThat(service.newProducerId()).as("later ids of the block need no file").isCompletedWithValue(3 * SPACE + 1);
    }

    @Test
    void persistsOncePerBlockOfAThousand() {
        ProducerIdService service = new ProducerIdService(0, store, Runnable::run);
        Set<Long> ids = new HashSet<>();
        for (int i = 0; i < 1000; i++) {
            ids.add(service.allocate());
        }
        assertThat(ids).hasSize(1000);
        assertThat(store.load()).isEqualTo(1000);

        assertThat(service.newProducerId()).isCompletedWithValue(SPACE + 1000);
        assertThat(store.load()).isEqualTo(2000);
    }

    @Test
    void aRestartContinuesAfterThePersistedEnd() {
        ProducerIdService before = new ProducerIdService(1, store, Runnable::run);
        long last = 0;
        for (int i = 0; i < 10; i++) {
            last = before.allocate();
        }

        ProducerIdService after = new ProducerIdService(1, store, Runnable::run);

        long next = after.allocate();
        assertThat(next).isEqualTo(2 * SPACE + 1000).isGreaterThan(last);
        assertThat(store.load()).isEqualTo(2000);
    }

    @Test
    void noIdIsHandedOutWhenTheBlockCannotBePersisted() {
        ProducerIdBlockStore broken = new ProducerIdBlockStore() {
            @Override
            public long load() {
                return 0;
            }

            @Override
            public void persist(long blockEnd) {
                throw new UncheckedIOException(new IOException("read-only volume"));
            }
        };
        ProducerIdService service = new ProducerIdService(0, broken, Runnable::run);

        assertThat(service.newProducerId()).failsWithin(Duration.ZERO).withThrowableThat()
                .withCauseInstanceOf(UncheckedIOException.class);
        assertThatThrownBy(service::allocate).as("still nothing without a durable block")
                .isInstanceOf(UncheckedIOException.class);
    }
}
