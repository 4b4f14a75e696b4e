package io.kaas.application.log;

import io.kaas.application.port.out.Filesystem.FileHandle;
import io.kaas.domain.batch.RecordBatchHeader;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Walks the batches of a segment file from a position, reading headers only (plus the whole batch
 * when its CRC must be verified), and stops at the first batch that is short, structurally
 * impossible, out of offset sequence, past a stop offset, or fails its CRC. Reads in large chunks,
 * so walking many small batches costs few system calls.
 */
final class BatchScanner {
    /** Chunk for walks over much of a file (recovery, replay). */
    static final int LARGE_CHUNK = 64 * 1024;
    /** Chunk for short walks near a known position (locating a read's ends): about one index interval. */
    static final int SMALL_CHUNK = 8 * 1024;
    private static final int MIN_BATCH_LENGTH = RecordBatchHeader.HEADER_SIZE - RecordBatchHeader.LOG_OVERHEAD;

    /** Sees each valid batch; {@code header} is only valid during the call. Returns false to stop the walk there. */
    interface Visitor {
        boolean batch(int position, RecordBatchHeader header);
    }

    /** Where the walk stopped: the end of the last batch walked past, and the offset after it. */
    record End(int position, long nextOffset) {
    }

    private final FileHandle file;
    private final int chunk;
    private ByteBuffer window;
    private long windowStart;
    private int windowLength;

    BatchScanner(FileHandle file) {
        this(file, LARGE_CHUNK);
    }

    BatchScanner(FileHandle file, int chunk) {
        this.file = file;
        this.chunk = chunk;
        this.window = ByteBuffer.allocate(chunk);
    }

    /**
     * Walks the batches from {@code from}. Offsets may skip ahead from one batch to the next (a segment
     * the log cleaner rewrote has gaps), never go back; recovery, which must tell a torn tail from a
     * gap, uses the variant below.
     *
     * @param from         position of the first batch
     * @param limit        bytes of the file that may be read
     * @param nextOffset   the base offset the first batch must have, or -1 to accept any
     * @param stopAtOffset stop before a batch whose base offset is at or past this
     * @param verifyCrc    check each batch's CRC32C (reads whole batches)
     */
    End scan(int from, long limit, long nextOffset, long stopAtOffset, boolean verifyCrc, Visitor visitor)
            throws IOException {
        return scan(from, limit, nextOffset, true, stopAtOffset, verifyCrc, visitor);
    }

    /**
     * As {@link #scan(int, long, long, long, boolean, Visitor)}, but without {@code gapsAllowed} (a
     * segment the log cleaner never rewrote) each batch must start at the offset after the previous one.
     */
    End scan(int from, long limit, long nextOffset, boolean gapsAllowed, long stopAtOffset, boolean verifyCrc,
             Visitor visitor) throws IOException {
        int position = from;
        long expected = nextOffset;
        while (position + (long) RecordBatchHeader.HEADER_SIZE <= limit) {
            if (!fill(position, RecordBatchHeader.HEADER_SIZE)) {
                break;
            }
            RecordBatchHeader header = RecordBatchHeader.at(window, (int) (position - windowStart));
            int length = header.batchLength();
            if (length < MIN_BATCH_LENGTH || position + (long) RecordBatchHeader.LOG_OVERHEAD + length > limit
                    || header.magic() != RecordBatchHeader.MAGIC_V2 || header.lastOffsetDelta() < 0
                    || (expected >= 0 && (gapsAllowed ? header.baseOffset() < expected : header.baseOffset() != expected)) || header.baseOffset() >= stopAtOffset) {
                break;
            }
            int size = header.sizeInBytes();
            if (verifyCrc) {
                if (!fill(position, size)) {
                    break;
                }
                header = RecordBatchHeader.at(window, (int) (position - windowStart));
                if (header.computeCrc() != header.storedCrc()) {
                    break;
                }
            }
            if (!visitor.batch(position, header)) {
                break;
            }
            expected = header.lastOffset() + 1;
            position += size;
        }
        return new End(position, expected);
    }

    /** Makes {@code [position, position + length)} readable in the window; false at end of file. */
    private boolean fill(long position, int length) throws IOException {
        if (position >= windowStart && position + length <= windowStart + windowLength) {
            return true;
        }
        if (window.capacity() < length) {
            window = ByteBuffer.allocate(Math.max(length, chunk));
        }
        window.clear();
        windowStart = position;
        windowLength = 0;
        while (window.hasRemaining()) {
            int read = file.read(window, position + windowLength);
            if (read < 0) {
                break;
            }
            windowLength += read;
        }
        window.clear();
        return windowLength >= length;
    }
}
