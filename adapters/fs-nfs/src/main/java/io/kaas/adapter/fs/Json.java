package io.kaas.adapter.fs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Optional;

/** Reads and atomically writes the JSON files on the data volume. */
final class Json {
    private static final JacksonCodec CODEC = new JacksonCodec();
    private static final NioFilesystem FS = new NioFilesystem();

    private Json() {
    }

    static <T> Optional<T> read(Path file, Class<T> type) {
        try {
            Optional<byte[]> bytes = FS.readAll(file);
            return bytes.isEmpty() ? Optional.empty() : Optional.of(CODEC.decode(bytes.get(), type));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    static void write(Path file, Object value) {
        AtomicFiles.write(file, CODEC.encode(value));
    }
}
