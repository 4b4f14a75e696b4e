package io.kaas.adapter.wire.support;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import java.nio.ByteBuffer;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.ResponseHeader;

/** Reads response frames back the way a Kafka client does, with kafka-clients' own parsers. */
public final class Responses {
    private Responses() {
    }

    /** A parsed response frame. */
    public record Received<R extends AbstractResponse>(ResponseHeader header, R body) {
        public int correlationId() {
            return header.correlationId();
        }
    }

    /**
     * Parses and releases a response frame: checks that the size prefix covers exactly the rest,
     * reads the header at {@code headerVersion} and the body at {@code bodyVersion}, and checks that
     * nothing is left over.
     */
    @SuppressWarnings("unchecked")
    public static <R extends AbstractResponse> Received<R> parse(ByteBuf frame, ApiKeys key, short bodyVersion,
                                                                 short headerVersion) {
        ByteBuffer buffer;
        try {
            byte[] bytes = new byte[frame.readableBytes()];
            frame.getBytes(frame.readerIndex(), bytes);
            buffer = ByteBuffer.wrap(bytes);
        } finally {
            frame.release();
        }
        int size = buffer.getInt();
        assertThat(size).as("size prefix of a %s v%d response", key, bodyVersion).isEqualTo(buffer.remaining());
        ResponseHeader header = ResponseHeader.parse(buffer, headerVersion);
        R body = (R) AbstractResponse.parseResponse(key, buffer, bodyVersion);
        assertThat(buffer.remaining()).as("bytes left after a %s v%d response", key, bodyVersion).isZero();
        return new Received<>(header, body);
    }

    /** Parses a response to a request of {@code key} at {@code version}, with the header version Apache uses. */
    public static <R extends AbstractResponse> Received<R> parse(ByteBuf frame, ApiKeys key, short version) {
        return parse(frame, key, version, key.responseHeaderVersion(version));
    }
}
