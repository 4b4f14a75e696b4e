package io.kaas.adapter.wire.tls;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.FileRegion;
import io.netty.util.ReferenceCountUtil;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;
import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.Executor;

/**
 * The kernel cannot encrypt: a Fetch answered from a segment file is a {@link FileRegion} (sendfile), which
 * an {@code SslHandler} refuses. This handler, right after the {@code SslHandler} of a TLS connection,
 * reads each region into a buffer on the I/O executor (never on the event loop, which must not touch
 * files) and writes the buffer in the region's place. Writes and flushes that come after a region wait
 * until it has been read, so the connection's bytes keep their order. Apache's TLS transport copies the
 * file through memory likewise.
 */
public final class FileRegionReader extends ChannelOutboundHandlerAdapter {
    /** A flush, queued among the writes it must follow. */
    private static final Object FLUSH = new Object();

    private final Executor ioExecutor;
    /** Writes (message and promise) and flushes that arrived while a region was being read. */
    private final Queue<Object> waiting = new ArrayDeque<>();
    private boolean reading;

    private record Write(Object message, ChannelPromise promise) {
    }

    /** @param ioExecutor where the file reads run: the broker's I/O executor */
    public FileRegionReader(Executor ioExecutor) {
        this.ioExecutor = ioExecutor;
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object message, ChannelPromise promise) {
        if (reading) {
            waiting.add(new Write(message, promise));
        } else if (message instanceof FileRegion region) {
            read(ctx, region, promise);
        } else {
            ctx.write(message, promise);
        }
    }

    @Override
    public void flush(ChannelHandlerContext ctx) {
        if (reading) {
            waiting.add(FLUSH);
        } else {
            ctx.flush();
        }
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        // the channel is gone: nothing queued will be written
        Object queued;
        while ((queued = waiting.poll()) != null) {
            if (queued instanceof Write write) {
                ReferenceCountUtil.release(write.message());
                write.promise().tryFailure(new IOException("connection closed before the write"));
            }
        }
    }

    private void read(ChannelHandlerContext ctx, FileRegion region, ChannelPromise promise) {
        reading = true;
        ioExecutor.execute(() -> {
            ByteBuf bytes = null;
            Throwable failure = null;
            try {
                bytes = copy(ctx, region);
            } catch (IOException | RuntimeException e) {
                failure = e;
            } finally {
                region.release();
            }
            ByteBuf read = bytes;
            Throwable error = failure;
            ctx.executor().execute(() -> written(ctx, read, error, promise));
        });
    }

    /** Back on the event loop: the region's bytes take its place, then what waited behind it goes out. */
    private void written(ChannelHandlerContext ctx, ByteBuf bytes, Throwable failure, ChannelPromise promise) {
        reading = false;
        if (failure != null) {
            promise.tryFailure(failure);
            ctx.fireExceptionCaught(failure);
        } else {
            ctx.write(bytes, promise);
        }
        Object next;
        while (!reading && (next = waiting.poll()) != null) {
            if (next == FLUSH) {
                ctx.flush();
            } else {
                Write write = (Write) next;
                write(ctx, write.message(), write.promise());
            }
        }
    }

    private static ByteBuf copy(ChannelHandlerContext ctx, FileRegion region) throws IOException {
        long count = region.count() - region.transferred();
        if (count > Integer.MAX_VALUE) {
            throw new IOException("a file region of " + count + " bytes does not fit a buffer");
        }
        ByteBuf buffer = ctx.alloc().buffer((int) count);
        try {
            BufferChannel target = new BufferChannel(buffer);
            while (region.transferred() < region.count()) {
                if (region.transferTo(target, region.transferred()) <= 0) {
                    throw new IOException("the file ended " + (region.count() - region.transferred())
                            + " bytes before its region did");
                }
            }
            return buffer;
        } catch (IOException | RuntimeException e) {
            buffer.release();
            throw e;
        }
    }

    /** A channel writing into a buffer, what {@link FileRegion#transferTo} copies into. */
    private static final class BufferChannel implements WritableByteChannel {
        private final ByteBuf buffer;

        BufferChannel(ByteBuf buffer) {
            this.buffer = buffer;
        }

        @Override
        public int write(ByteBuffer source) {
            int bytes = source.remaining();
            buffer.writeBytes(source);
            return bytes;
        }

        @Override
        public boolean isOpen() {
            return true;
        }

        @Override
        public void close() {
            // the buffer outlives the copy
        }
    }
}
