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
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.Executor;

/**
 * The kernel cannot encrypt: a Fetch answered from a segment file is a {@link FileRegion} (sendfile), which
 * an {@code SslHandler} refuses. This handler, right after the {@code SslHandler} of a TLS connection,
 * reads regions into buffers on the I/O executor (never on the event loop, which must not touch files) and
 * writes each buffer in its region's place. Writes and flushes that come after a region wait until it has
 * been read, so the connection's bytes keep their order. The regions are read when a flush asks for them,
 * all regions written before it in one task: a Fetch of many partitions is one hand-off to the I/O executor,
 * not one per partition, each of which would wait for a thread on a busy machine. The task hands what it has
 * read back to the loop every {@link #DEFAULT_HAND_BACK_BYTES} or so, and the loop writes and flushes it at once:
 * the first part of a large Fetch is encrypted and on its way while the rest is read, as Apache's TLS
 * transport, which copies the file through memory on its network thread, sends a response record by record.
 * A {@link ReadableFileRegion} (the fetched records of a segment) is read straight into the buffer; any other
 * region is transferred into it.
 */
public final class FileRegionReader extends ChannelOutboundHandlerAdapter {
    /** A flush, queued among the writes it must follow. */
    private static final Object FLUSH = new Object();
    /** Read bytes the I/O task hands back to the loop together: a few TLS records' worth at least, to encrypt and send. */
    static final int DEFAULT_HAND_BACK_BYTES = 256 * 1024;

    private final Executor ioExecutor;
    private final int handBackBytes;
    /**
     * Writes (message and promise) and flushes held back behind a region not written yet, in order. Whenever
     * no read runs, it is empty or starts with a region.
     */
    private final Queue<Object> waiting = new ArrayDeque<>();
    /**
     * The regions the running read copies and has not handed back (they stay in {@link #waiting} until written);
     * empty: none runs.
     */
    private final Set<FileRegion> reading = Collections.newSetFromMap(new IdentityHashMap<>());
    /**
     * Set while {@link #written} writes read regions out: a flush a write sets off meanwhile (a writability change
     * reaching the dispatcher) must not start reading regions that are in hand; the drain starts the next read.
     */
    private boolean draining;

    private record Write(Object message, ChannelPromise promise) {
    }

    /** @param ioExecutor where the file reads run: the broker's I/O executor */
    public FileRegionReader(Executor ioExecutor) {
        this(ioExecutor, DEFAULT_HAND_BACK_BYTES);
    }

    /** @param handBackBytes how many read bytes the I/O task gathers before it hands them to the loop */
    FileRegionReader(Executor ioExecutor, int handBackBytes) {
        this.ioExecutor = ioExecutor;
        this.handBackBytes = handBackBytes;
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object message, ChannelPromise promise) {
        if (message instanceof FileRegion || !waiting.isEmpty()) {
            waiting.add(new Write(message, promise));
        } else {
            ctx.write(message, promise);
        }
    }

    @Override
    public void flush(ChannelHandlerContext ctx) {
        if (waiting.isEmpty()) {
            ctx.flush();
            return;
        }
        waiting.add(FLUSH);
        if (reading.isEmpty() && !draining) {
            readRegions(ctx);
        }
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        // the channel is gone: nothing queued will be written; a region being read is released by its read
        Object queued;
        while ((queued = waiting.poll()) != null) {
            if (queued instanceof Write write) {
                if (!reading.contains(write.message())) {
                    ReferenceCountUtil.release(write.message());
                }
                write.promise().tryFailure(new IOException("connection closed before the write"));
            }
        }
    }

    /** Copies every region waiting now, in one task on the I/O executor. */
    private void readRegions(ChannelHandlerContext ctx) {
        List<FileRegion> regions = new ArrayList<>();
        for (Object queued : waiting) {
            if (queued instanceof Write write && write.message() instanceof FileRegion region) {
                regions.add(region);
            }
        }
        reading.addAll(regions);
        ioExecutor.execute(() -> {
            Map<FileRegion, Object> copies = new IdentityHashMap<>(); // a region's buffer, or why it failed
            long bytes = 0;
            for (int i = 0; i < regions.size(); i++) {
                FileRegion region = regions.get(i);
                try {
                    ByteBuf copy = copy(ctx, region);
                    bytes += copy.readableBytes();
                    copies.put(region, copy);
                } catch (IOException | RuntimeException e) {
                    copies.put(region, e);
                } finally {
                    region.release();
                }
                if (bytes >= handBackBytes || i == regions.size() - 1) {
                    Map<FileRegion, Object> handedBack = copies;
                    ctx.executor().execute(() -> written(ctx, handedBack));
                    copies = new IdentityHashMap<>();
                    bytes = 0;
                }
            }
        });
    }

    /**
     * Back on the event loop with the regions read so far (in order: every region before them is written): each
     * region's bytes take its place, and what waited behind it goes out, up to a region the read has yet to hand
     * back (what went out is flushed now, not at the end of the response), or one written during the read, which
     * a flush after it sends to be read in turn.
     */
    private void written(ChannelHandlerContext ctx, Map<FileRegion, Object> copies) {
        reading.removeAll(copies.keySet());
        draining = true;
        try {
            drain(ctx, copies);
        } finally {
            draining = false;
        }
        // left only when the channel closed during the read: nobody will write these buffers
        copies.values().forEach(ReferenceCountUtil::release);
    }

    private void drain(ChannelHandlerContext ctx, Map<FileRegion, Object> copies) {
        Object next;
        while ((next = waiting.peek()) != null) {
            if (next == FLUSH) {
                waiting.poll();
                ctx.flush();
            } else if (((Write) next).message() instanceof FileRegion region && !copies.containsKey(region)) {
                if (!reading.isEmpty()) {
                    ctx.flush();
                } else if (waiting.contains(FLUSH)) {
                    readRegions(ctx);
                }
                break;
            } else {
                Write write = (Write) waiting.poll();
                Object copy = write.message() instanceof FileRegion region ? copies.remove(region) : write.message();
                if (copy instanceof Throwable failure) {
                    write.promise().tryFailure(failure);
                    ctx.fireExceptionCaught(failure);
                } else {
                    ctx.write(copy, write.promise());
                }
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
            if (region instanceof ReadableFileRegion readable && buffer.nioBufferCount() == 1) {
                // one read into the buffer's memory, not a transfer in 8 KiB chunks through a temporary one
                readable.readFully(buffer.nioBuffer(buffer.writerIndex(), (int) count));
                return buffer.writerIndex(buffer.writerIndex() + (int) count);
            }
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
