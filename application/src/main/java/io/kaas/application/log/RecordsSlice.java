package io.kaas.application.log;

import io.kaas.application.port.in.FetchedRecords;
import io.kaas.application.port.out.Filesystem.FileHandle;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;
import java.util.Optional;

/**
 * Whole batches a read returns, as they lie in the log: a view of a heap buffer (memory log) or a
 * region of a segment file (disk log). A file region is sent by the kernel from the page cache to
 * the socket, never copied through the broker. Fetch answers see them as {@link FetchedRecords}.
 */
public sealed interface RecordsSlice extends FetchedRecords permits RecordsSlice.Heap, RecordsSlice.FileSlice {
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

        @Override
        public Optional<ByteBuffer> inMemory() {
            return Optional.of(buffer.duplicate());
        }

        @Override
        public Optional<FileSpan> inFile() {
            return Optional.empty();
        }

        @Override
        public long transferTo(WritableByteChannel target, long offset, long count) throws IOException {
            ByteBuffer part = buffer.duplicate();
            part.position(part.position() + (int) offset);
            part.limit(part.position() + (int) Math.min(count, part.remaining()));
            return target.write(part);
        }

        @Override
        public int read(ByteBuffer dst, long offset) {
            ByteBuffer part = buffer.duplicate();
            part.position(part.position() + (int) offset);
            part.limit(part.position() + Math.min(part.remaining(), dst.remaining()));
            int bytes = part.remaining();
            dst.put(part);
            return bytes;
        }
    }

    /** {@code size} bytes of batches at {@code position} of an open segment file. */
    record FileSlice(FileHandle file, long position, int size) implements RecordsSlice {
        @Override
        public int sizeInBytes() {
            return size;
        }

        @Override
        public Optional<ByteBuffer> inMemory() {
            return Optional.empty();
        }

        @Override
        public Optional<FileSpan> inFile() {
            return file.sendableChannel().map(channel -> new FileSpan(channel, position, size));
        }

        @Override
        public long transferTo(WritableByteChannel target, long offset, long count) throws IOException {
            return file.transferTo(position + offset, Math.min(count, size - offset), target);
        }

        @Override
        public int read(ByteBuffer dst, long offset) throws IOException {
            int wanted = (int) Math.min(dst.remaining(), size - offset);
            if (wanted <= 0) {
                return 0;
            }
            ByteBuffer part = dst.slice().limit(wanted);
            int read = file.read(part, position + offset);
            if (read < 0) {
                throw new IOException("the segment ends before the slice it was read at");
            }
            dst.position(dst.position() + read);
            return read;
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
