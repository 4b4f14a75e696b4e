package io.kaas.adapter.fs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClusterIdFileTest {
    private static final JsonFiles JSON = new JsonFiles(new NioFilesystem(), new JacksonCodec());

    @TempDir
    Path root;

    @Test
    void mintsTheIdOnceAndReturnsTheStoredOneAfterwards() {
        DataLayout layout = new DataLayout(root);
        AtomicInteger minted = new AtomicInteger();

        String first = ClusterIdFile.loadOrCreate(layout, JSON, () -> "id-" + minted.incrementAndGet());
        String second = ClusterIdFile.loadOrCreate(layout, JSON, () -> "id-" + minted.incrementAndGet());

        assertThat(first).isEqualTo("id-1");
        assertThat(second).isEqualTo("id-1");
        assertThat(minted).hasValue(1);
        assertThat(layout.clusterFile()).exists();
    }
}
