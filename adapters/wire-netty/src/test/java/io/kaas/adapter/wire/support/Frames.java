package io.kaas.adapter.wire.support;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.ByteBuffer;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.RequestHeader;

/** Request frames as a Kafka client puts them on the wire, serialized by kafka-clients itself. */
public final class Frames {
    public static final String CLIENT_ID = "wire-test";

    private Frames() {
    }

    /** Header and body, without the size prefix. */
    public static byte[] headerAndBody(AbstractRequest request, int correlationId) {
        ByteBuffer bytes = request.serializeWithHeader(
                new RequestHeader(request.apiKey(), request.version(), CLIENT_ID, correlationId));
        byte[] out = new byte[bytes.remaining()];
        bytes.get(out);
        return out;
    }

    /** A size-prefixed frame, in a direct buffer. */
    public static ByteBuf frame(AbstractRequest request, int correlationId) {
        return frame(headerAndBody(request, correlationId));
    }

    /**
     * Prefixes any bytes with their 4-byte big-endian size. The frame is a direct buffer, as a
     * socket read gives, so Netty's leak detector tracks it too.
     */
    public static ByteBuf frame(byte[] headerAndBody) {
        ByteBuf frame = Unpooled.directBuffer(Integer.BYTES + headerAndBody.length);
        frame.writeInt(headerAndBody.length).writeBytes(headerAndBody);
        return frame;
    }

    /**
     * A frame whose header claims another API key or version than the body was serialized for:
     * how a newer (or broken) client looks to this broker.
     */
    public static ByteBuf frameClaiming(AbstractRequest request, int correlationId, int apiKey, int apiVersion) {
        byte[] bytes = headerAndBody(request, correlationId);
        ByteBuffer.wrap(bytes).putShort(0, (short) apiKey).putShort(2, (short) apiVersion);
        return frame(bytes);
    }
}
