package io.kaas.adapter.wire.codec;

import io.kaas.adapter.wire.tls.ReadableFileRegion;
import io.kaas.application.port.in.FetchedRecords;
import io.netty.channel.FileRegion;
import io.netty.util.AbstractReferenceCounted;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;

/**
 * Fetched records in a file the log has no kernel channel for (the simulated filesystem), as a Netty file region:
 * the transport hands its socket to {@link #transferTo}, which copies through memory. The file belongs to the
 * log, which keeps a removed segment open for in-flight reads ({@code file.delete.delay.ms}); releasing the region
 * therefore closes nothing. Over TLS it is read straight into the buffer the connection encrypts from
 * ({@link ReadableFileRegion}). Files on the real volume go as {@link SegmentFileRegion}s, by sendfile.
 */
final class SliceRegion extends AbstractReferenceCounted implements ReadableFileRegion {
    private final FetchedRecords slice;
    private long transferred;

    SliceRegion(FetchedRecords slice) {
        this.slice = slice;
    }

    @Override
    public long position() {
        return 0;
    }

    @Override
    public long count() {
        return slice.sizeInBytes();
    }

    @Override
    public long transferred() {
        return transferred;
    }

    @Override
    @Deprecated
    public long transfered() {
        return transferred;
    }

    @Override
    public long transferTo(WritableByteChannel target, long position) throws IOException {
        long sent = slice.transferTo(target, position, slice.sizeInBytes() - position);
        transferred += sent;
        return sent;
    }

    @Override
    public void readFully(ByteBuffer dst) throws IOException {
        while (dst.hasRemaining()) {
            int read = slice.read(dst, transferred);
            if (read <= 0) {
                throw new EOFException("the records end " + dst.remaining() + " bytes before the buffer does");
            }
            transferred += read;
        }
    }

    @Override
    public FileRegion retain() {
        super.retain();
        return this;
    }

    @Override
    public FileRegion retain(int increment) {
        super.retain(increment);
        return this;
    }

    @Override
    public FileRegion touch() {
        return this;
    }

    @Override
    public FileRegion touch(Object hint) {
        return this;
    }

    @Override
    protected void deallocate() {
        // nothing to free: the log owns the file handle
    }
}
