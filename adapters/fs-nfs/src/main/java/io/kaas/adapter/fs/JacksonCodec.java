package io.kaas.adapter.fs;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.kaas.application.port.out.JsonCodec;
import java.io.IOException;

/**
 * The {@link JsonCodec} port on Jackson. Output is indented, because operators read these files
 * by hand; unknown properties are ignored, so an older broker can read a file a newer one wrote.
 * Records (top-level or nested, such as those in the application's classes) bind through their
 * canonical constructors. Thread-safe.
 */
public final class JacksonCodec implements JsonCodec {
    private final ObjectMapper mapper = new ObjectMapper()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            // Bytes after the document mean the file is not what we wrote: fail rather than half-read it.
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    @Override
    public byte[] encode(Object value) {
        try {
            return mapper.writeValueAsBytes(value);
        } catch (JsonProcessingException e) {
            // Only a type Jackson cannot describe gets here: a programming error, not an I/O one.
            throw new IllegalArgumentException("cannot encode " + value.getClass().getName() + " as JSON", e);
        }
    }

    @Override
    public <T> T decode(byte[] json, Class<T> type) throws IOException {
        T value = mapper.readValue(json, type);
        if (value == null) {
            // A literal "null" document is never a state file we wrote.
            throw new IOException("JSON document is null, expected " + type.getName());
        }
        return value;
    }
}
