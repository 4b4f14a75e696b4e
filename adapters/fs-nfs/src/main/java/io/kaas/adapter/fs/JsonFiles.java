package io.kaas.adapter.fs;

import io.kaas.application.port.out.Filesystem;
import io.kaas.application.port.out.JsonCodec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The JSON files on the data volume, read and written through the {@link Filesystem} port, so every
 * metadata store obeys the substrate contract (temp + fsync + rename + directory fsync) on the real
 * volume and runs under the fault-injecting simulation in tests. I/O failures surface unchecked:
 * the stores' callers already treat a failed store call as a failed request.
 */
public final class JsonFiles {
    private final Filesystem fs;
    private final JsonCodec codec;

    public JsonFiles(Filesystem fs, JsonCodec codec) {
        this.fs = fs;
        this.codec = codec;
    }

    /** The decoded file, or empty if there is none. */
    public <T> Optional<T> read(Path file, Class<T> type) {
        try {
            Optional<byte[]> bytes = fs.readAll(file);
            return bytes.isEmpty() ? Optional.empty() : Optional.of(codec.decode(bytes.get(), type));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    /** Replaces the file atomically and durably, creating its directories first. */
    public void write(Path file, Object value) {
        byte[] content = codec.encode(value);
        try {
            fs.createDirectories(file.toAbsolutePath().getParent());
            fs.writeAtomically(file, content);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    /** Deletes a file durably; a missing file is not an error. */
    public void delete(Path file) {
        try {
            fs.deleteDurably(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + file, e);
        }
    }

    /** Creates a directory and its missing parents; an existing one is not an error. */
    public void createDirectories(Path dir) {
        try {
            fs.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + dir, e);
        }
    }

    /** Deletes a directory tree durably; a missing one is not an error. */
    public void deleteTree(Path root) {
        try {
            fs.deleteTree(root);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + root, e);
        }
    }

    /** The names in a directory, sorted; empty if it does not exist. */
    public List<String> list(Path dir) {
        try {
            return fs.list(dir).stream().sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + dir, e);
        }
    }

    public boolean exists(Path file) {
        try {
            return fs.exists(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot stat " + file, e);
        }
    }

    public boolean isDirectory(Path path) {
        try {
            return fs.isDirectory(path);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot stat " + path, e);
        }
    }
}
