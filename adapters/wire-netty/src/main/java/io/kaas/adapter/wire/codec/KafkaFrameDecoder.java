package io.kaas.adapter.wire.codec;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Splits the byte stream into Kafka frames: a 4-byte big-endian size, then that many bytes. Emits
 * each frame as a retained slice. A negative size or one above the cap (Apache's
 * {@code socket.request.max.bytes}) closes the connection, as Apache does; a frame cut short waits
 * for the rest until the peer closes, and tells its {@link ReceiveLowWater} how much rest that is.
 */
public final class KafkaFrameDecoder extends ByteToMessageDecoder {
    private static final Logger LOG = LoggerFactory.getLogger(KafkaFrameDecoder.class);
    private static final int SIZE_PREFIX = 4;

    private final ReceiveLowWater lowWater;
    private int maxFrameBytes;
    private boolean rejected;

    public KafkaFrameDecoder(int maxFrameBytes) {
        this(maxFrameBytes, ReceiveLowWater.off());
    }

    public KafkaFrameDecoder(int maxFrameBytes, ReceiveLowWater lowWater) {
        this.maxFrameBytes = maxFrameBytes;
        this.lowWater = lowWater;
    }

    /**
     * Changes the cap for the frames still to come: a SASL listener's connections start with
     * Apache's lower pre-authentication cap and get the listener's own once authenticated.
     * Event-loop confined.
     */
    public void limitFrames(int maxFrameBytes) {
        this.maxFrameBytes = maxFrameBytes;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (rejected) {
            in.skipBytes(in.readableBytes());
            return;
        }
        while (in.readableBytes() >= SIZE_PREFIX) {
            int size = in.getInt(in.readerIndex());
            if (size < 0 || size > maxFrameBytes) {
                rejected = true;
                LOG.warn("closing connection from {}: frame size {} is outside [0, {}] (socket.request.max.bytes, or "
                                + "sasl.server.max.receive.size before authentication)",
                        ctx.channel().remoteAddress(), size, maxFrameBytes);
                in.skipBytes(in.readableBytes());
                ctx.close();
                return;
            }
            if (in.readableBytes() < SIZE_PREFIX + size) {
                lowWater.expect(ctx.channel(), SIZE_PREFIX + size - in.readableBytes());
                return;
            }
            in.skipBytes(SIZE_PREFIX);
            out.add(in.readRetainedSlice(size));
        }
        lowWater.expect(ctx.channel(), 0);
    }
}
