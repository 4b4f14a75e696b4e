package io.kaas.adapter.wire.codec;

import io.netty.buffer.ByteBuf;
import java.nio.ByteBuffer;
import java.util.function.BiPredicate;
import org.apache.kafka.common.message.ApiVersionsRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.ApiVersionsRequest;
import org.apache.kafka.common.requests.RequestHeader;

/**
 * Parses a frame with kafka-clients' own classes, as Apache's broker does: the header, then the
 * body at the header's version. Produce records stay a zero-copy view of the frame.
 */
public final class RequestParser {
    private final BiPredicate<ApiKeys, Short> served;

    /** @param served whether this broker serves an API key at a version */
    public RequestParser(BiPredicate<ApiKeys, Short> served) {
        this.served = served;
    }

    /**
     * Parses a frame; takes over the caller's reference to it.
     *
     * @throws MalformedRequestException for an unknown API key, an unserved version (except
     *                                   ApiVersions) or a body that does not parse; the frame is released
     */
    public KafkaRequest parse(ByteBuf frame) {
        try {
            ByteBuffer buffer = frame.nioBuffer();
            RequestHeader header = RequestHeader.parse(buffer);
            ApiKeys key = header.apiKey();
            short version = header.apiVersion();
            if (!served.test(key, version)) {
                if (key == ApiKeys.API_VERSIONS) {
                    ApiVersionsRequest fallback = new ApiVersionsRequest(new ApiVersionsRequestData(), (short) 0, version);
                    return new KafkaRequest(header, fallback, frame, true);
                }
                throw new MalformedRequestException("API " + key + " version " + version + " is not served", null);
            }
            AbstractRequest body = AbstractRequest.parseRequest(key, version, buffer).request;
            return new KafkaRequest(header, body, frame, false);
        } catch (MalformedRequestException e) {
            frame.release();
            throw e;
        } catch (RuntimeException e) {
            frame.release();
            throw new MalformedRequestException("unparseable request: " + e, e);
        }
    }
}
