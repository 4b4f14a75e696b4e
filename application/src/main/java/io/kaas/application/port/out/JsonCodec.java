package io.kaas.application.port.out;

import java.io.IOException;

/**
 * Turns the storage engine's small state records (manifest, checkpoint, producer snapshot) into
 * the JSON files the book's layout names, and back. The core stays free of a JSON library.
 */
public interface JsonCodec {
    byte[] encode(Object value);

    <T> T decode(byte[] json, Class<T> type) throws IOException;
}
