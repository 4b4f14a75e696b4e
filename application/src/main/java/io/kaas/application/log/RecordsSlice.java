package io.kaas.application.log;

import io.kaas.application.port.out.Filesystem.FileHandle;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;

/**
 * Whole batches a read returns, as they lie in the log: a view of a heap buffer (memory log) or a
 * region of a segment file (disk log). A file region is sent by the kernel from the page cache to
 * the socket, never copied through the broker.
 */
public sealed interface RecordsSlice permits RecordsSlice.Heap, RecordsSlice.FileSlice {
    RecordsSlice EMPTY = new Heap(ByteBuffer.allocate(0).asReadOnlyBuffer());

    int sizeInBytes();

    /** The bytes in memory: a view for a heap slice, a copy read from the file for a file slice. */
    ByteBuffer toByteBuffer();

    /** Batches in a heap buffer, from its position to its limit. */
    record Heap(ByteBuffer buffer) implements RecordsSlice {
        @Override
        public int sizeInBytes() {
            return buffer.remaining();
        }

        @Override
        public ByteBuffer toByteBuffer() {
            return buffer.duplicate();
        }
    }

    /** {@code size} bytes of batches at {@code position} of an open segment file. */
    record FileSlice(FileHandle file, long position, int size) implements RecordsSlice {
        @Override
        public int sizeInBytes() {
            return size;
        }

        /** Sends up to {@code count} bytes from {@code offset} within the slice; how many went. */
        public long transferTo(WritableByteChannel target, long offset, long count) throws IOException {
            return file.transferTo(position + offset, Math.min(count, size - offset), target);
        }

        @Override
        public ByteBuffer toByteBuffer() {
            ByteBuffer bytes = ByteBuffer.allocate(size);
            try {
                while (bytes.hasRemaining()) {
                    if (file.read(bytes, position + bytes.position()) < 0) {
                        throw new IOException("the segment ends before the slice it was read at");
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return bytes.flip();
        }
    }
}
