package io.kaas.adapter.wire.codec;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.FileRegion;
import io.netty.util.ReferenceCountUtil;
import java.util.List;

/**
 * An encoded response, ready to write: buffers and, where a Fetch returns records from segment
 * files, file regions, in wire order. Writing them one after the other on one channel is the frame.
 */
public final class ResponseFrame {
    private final List<Object> parts;

    ResponseFrame(List<Object> parts) {
        this.parts = List.copyOf(parts);
    }

    /** The parts in wire order: {@link ByteBuf}s and {@link FileRegion}s. */
    public List<Object> parts() {
        return parts;
    }

    /** Bytes on the wire, size prefix included. */
    public long sizeInBytes() {
        long size = 0;
        for (Object part : parts) {
            size += part instanceof ByteBuf buf ? buf.readableBytes() : ((FileRegion) part).count();
        }
        return size;
    }

    /** Writes every part (the channel takes them over); the caller flushes. */
    public void writeTo(ChannelHandlerContext ctx) {
        for (Object part : parts) {
            ctx.write(part);
        }
    }

    /** Gives the parts back when the frame will not be written. */
    public void release() {
        parts.forEach(ReferenceCountUtil::release);
    }
}
