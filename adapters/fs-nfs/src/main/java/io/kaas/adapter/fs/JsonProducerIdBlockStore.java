package io.kaas.adapter.fs;

import io.kaas.application.port.out.ProducerIdBlockStore;
import java.nio.file.Path;

/** This broker's producer-id block end in {@code __cluster/producer_ids/kaas-<id>.json}; one writer per file. */
public final class JsonProducerIdBlockStore implements ProducerIdBlockStore {
    private final Path file;
    private final JsonFiles files;

    public JsonProducerIdBlockStore(DataLayout layout, JsonFiles files, int brokerId) {
        this.file = layout.producerIdBlock(brokerId);
        this.files = files;
    }

    @Override
    public long load() {
        return files.read(file, BlockFile.class).map(BlockFile::blockEnd).orElse(0L);
    }

    @Override
    public void persist(long blockEnd) {
        files.write(file, new BlockFile(blockEnd));
    }

    record BlockFile(long blockEnd) {
    }
}
