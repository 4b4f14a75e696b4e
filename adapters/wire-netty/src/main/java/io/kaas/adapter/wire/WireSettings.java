package io.kaas.adapter.wire;

import io.kaas.adapter.wire.dispatch.ConnectionLimits;

/**
 * The listener's settings.
 *
 * @param host          address to bind
 * @param port          port to bind, 0 for an ephemeral one
 * @param maxFrameBytes largest request frame accepted (Apache's {@code socket.request.max.bytes})
 * @param ioThreads     event-loop threads serving connections
 * @param limits        what one connection may have in flight
 */
public record WireSettings(String host, int port, int maxFrameBytes, int ioThreads, ConnectionLimits limits) {
    /** Apache's {@code socket.request.max.bytes} default: 100 MiB. */
    public static final int DEFAULT_MAX_FRAME_BYTES = 100 * 1024 * 1024;
}
