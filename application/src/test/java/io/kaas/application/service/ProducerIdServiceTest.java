package io.kaas.application.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.application.memory.InMemoryProducerIdBlockStore;
import io.kaas.application.port.out.ProducerIdBlockStore;
import java.io.UncheckedIOException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
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
        ProducerIdService service = new ProducerIdService(2, watching);
        assertThat(persistedWhenAsked).as("nothing persisted before the first request").isEmpty();

        long first = service.newProducerId();

        assertThat(first).isEqualTo(3 * SPACE);
        assertThat(persistedWhenAsked).containsExactly(1000L);
    }

    @Test
    void persistsOncePerBlockOfAThousand() {
        ProducerIdService service = new ProducerIdService(0, store);
        Set<Long> ids = new HashSet<>();
        for (int i = 0; i < 1000; i++) {
            ids.add(service.newProducerId());
        }
        assertThat(ids).hasSize(1000);
        assertThat(store.load()).isEqualTo(1000);

        assertThat(service.newProducerId()).isEqualTo(SPACE + 1000);
        assertThat(store.load()).isEqualTo(2000);
    }

    @Test
    void aRestartContinuesAfterThePersistedEnd() {
        ProducerIdService before = new ProducerIdService(1, store);
        long last = 0;
        for (int i = 0; i < 10; i++) {
            last = before.newProducerId();
        }

        ProducerIdService after = new ProducerIdService(1, store);

        long next = after.newProducerId();
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
        ProducerIdService service = new ProducerIdService(0, broken);

        assertThatThrownBy(service::newProducerId).isInstanceOf(UncheckedIOException.class);
        assertThatThrownBy(service::newProducerId).as("still nothing without a durable block")
                .isInstanceOf(UncheckedIOException.class);
    }
}
