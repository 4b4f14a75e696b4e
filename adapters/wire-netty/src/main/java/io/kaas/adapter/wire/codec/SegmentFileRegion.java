package io.kaas.adapter.wire.codec;

import io.kaas.adapter.wire.tls.ReadableFileRegion;
import io.kaas.application.port.in.FetchedRecords.FileSpan;
import io.netty.channel.DefaultFileRegion;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * Fetched records in a segment file the log has a channel for ({@link FileSpan}), as Netty's own file-region type:
 * the native epoll transport calls sendfile only for a {@link DefaultFileRegion} (it copies any other region through
 * memory), and NIO sends it by sendfile too. The log owns the channel, so releasing the region closes nothing. Over
 * TLS it is read straight into the buffer the connection encrypts from.
 */
final class SegmentFileRegion extends DefaultFileRegion implements ReadableFileRegion {
    private final FileChannel file;
    /** Bytes {@link #readFully} read (TLS); those Netty sends, {@link DefaultFileRegion} counts itself. */
    private long read;

    SegmentFileRegion(FileChannel file, FileSpan span) {
        super(file, span.position(), span.size());
        this.file = file;
    }

    @Override
    public long transferred() {
        return super.transferred() + read;
    }

    @Override
    public void readFully(ByteBuffer dst) throws IOException {
        while (dst.hasRemaining()) {
            int bytes = file.read(dst, position() + transferred());
            if (bytes <= 0) {
                throw new EOFException("the segment ends " + dst.remaining() + " bytes before the buffer does");
            }
            read += bytes;
        }
    }

    @Override
    protected void deallocate() {
        // nothing to free: the log owns the channel and closes it once no read can still need it
    }
}
