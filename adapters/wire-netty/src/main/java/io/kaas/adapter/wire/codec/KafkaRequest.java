package io.kaas.adapter.wire.codec;

import io.netty.buffer.ByteBuf;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.RequestHeader;

/**
 * A decoded request. Its body may alias {@code frame} (Produce records do), so the frame stays
 * retained until the response has been produced and must then be released exactly once.
 *
 * @param unsupportedVersion true for an ApiVersions request at a version this broker does not
 *                           serve: the body is an empty v0 request, answered with the KIP-511 fallback
 */
public record KafkaRequest(RequestHeader header, AbstractRequest body, ByteBuf frame, boolean unsupportedVersion) {
}
