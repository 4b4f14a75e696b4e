package io.kaas.adapter.fs.sim;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.kaas.application.port.out.Filesystem;
import io.kaas.application.port.out.Filesystem.FileHandle;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/** Small helpers the simulation tests share. */
final class SimFiles {
    private SimFiles() {
    }

    static byte[] bytes(String s) {
        return s.getBytes(UTF_8);
    }

    static void write(FileHandle handle, String s, long position) throws IOException {
        handle.write(ByteBuffer.wrap(bytes(s)), position);
    }

    /** The file's content as a string, or null if it does not exist. */
    static String content(Filesystem fs, Path file) throws IOException {
        return fs.readAll(file).map(b -> new String(b, UTF_8)).orElse(null);
    }

    /** Creates {@code file} with {@code s}, fsyncs it and its directory: fully durable. */
    static void writeDurably(Filesystem fs, Path file, String s) throws IOException {
        try (FileHandle handle = fs.open(file, true)) {
            write(handle, s, 0);
            handle.force();
        }
        fs.fsyncDirectory(file.getParent());
    }
}
