package io.kaas.adapter.fs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JsonProducerIdBlockStoreTest {
    private static final JsonFiles JSON = new JsonFiles(new NioFilesystem(), new JacksonCodec());

    @TempDir
    Path root;

    @Test
    void loadsZeroWhenNothingWasPersisted() {
        assertThat(new JsonProducerIdBlockStore(new DataLayout(root), JSON, 0).load()).isZero();
    }

    @Test
    void persistedEndsSurviveANewInstance() {
        DataLayout layout = new DataLayout(root);
        JsonProducerIdBlockStore store = new JsonProducerIdBlockStore(layout, JSON, 3);

        store.persist(1000);
        store.persist(2000);

        assertThat(new JsonProducerIdBlockStore(layout, JSON, 3).load()).isEqualTo(2000);
        assertThat(root.resolve("__cluster/producer_ids/kaas-3.json")).exists();
    }

    @Test
    void eachBrokerHasItsOwnFile() {
        DataLayout layout = new DataLayout(root);
        new JsonProducerIdBlockStore(layout, JSON, 0).persist(5000);

        assertThat(new JsonProducerIdBlockStore(layout, JSON, 1).load()).isZero();
        assertThat(new JsonProducerIdBlockStore(layout, JSON, 0).load()).isEqualTo(5000);
    }

    @Test
    void endsBeyondIntRangeRoundTrip() {
        JsonProducerIdBlockStore store = new JsonProducerIdBlockStore(new DataLayout(root), JSON, 0);
        long nearTheTop = (1L << 40) - 776;

        store.persist(nearTheTop);

        assertThat(store.load()).isEqualTo(nearTheTop);
    }
}
