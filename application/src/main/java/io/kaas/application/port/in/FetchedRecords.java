package io.kaas.application.port.in;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.util.Optional;

/**
 * Whole batches a fetch returns, as they lie in the log: in memory, or a region of a segment file
 * that the transport hands to the kernel to send (sendfile), never copied through the broker. The
 * port's side of a read: who holds the file, and how, stays behind it.
 */
public interface FetchedRecords {

    int sizeInBytes();

    /** A view of the batches when they are in memory; empty when they lie in a file (send them with {@link #transferTo}). */
    Optional<ByteBuffer> inMemory();

    /**
     * Where these records lie when the kernel can send them from a file channel: for a transport that calls
     * sendfile with the channel itself (Netty's native epoll sends only its own file-region type that way) instead
     * of {@link #transferTo}; empty in memory and on filesystems without such a channel. The log owns the channel:
     * read from it only, never close it.
     */
    Optional<FileSpan> inFile();

    /** {@code size} bytes at {@code position} of {@code channel}. */
    record FileSpan(SeekableByteChannel channel, long position, int size) {
    }

    /**
     * Sends up to {@code count} bytes from {@code offset} within these records to {@code target},
     * returning how many went (possibly fewer, as a non-blocking socket takes what fits).
     */
    long transferTo(WritableByteChannel target, long offset, long count) throws IOException;

    /**
     * Copies these records' bytes from {@code offset} into {@code dst}, as many as fit and remain, advancing its
     * position; how many came (0 only when none remain or {@code dst} is full). For a transport that must
     * encrypt them: one read into its own buffer, not a transfer through a channel.
     */
    int read(ByteBuffer dst, long offset) throws IOException;
}
