package io.kaas.adapter.wire;

import io.kaas.adapter.wire.dispatch.ConnectionLimits;

/**
 * The listener's settings.
 *
 * @param host          address to bind
 * @param port          port to bind, 0 for an ephemeral one
 * @param maxFrameBytes largest request frame accepted (Apache's {@code socket.request.max.bytes})
 * @param ioThreads     event-loop threads serving connections
 * @param sendBufferBytes    each connection's SO_SNDBUF (Apache's {@code socket.send.buffer.bytes}); -1 leaves the OS default
 * @param tlsSendBufferBytes the same for a connection on a TLS listener; -1 (the default) leaves the OS to size it
 * @param receiveBufferBytes each connection's SO_RCVBUF (Apache's {@code socket.receive.buffer.bytes}); -1 leaves the OS default
 * @param connectionsMaxIdleMs a connection with nothing read, written or in progress for this long is closed
 *                           (Apache's {@code connections.max.idle.ms}); -1 never closes one
 * @param limits        what one connection may have in flight
 */
public record WireSettings(String host, int port, int maxFrameBytes, int ioThreads, int sendBufferBytes,
                           int tlsSendBufferBytes, int receiveBufferBytes, long connectionsMaxIdleMs,
                           ConnectionLimits limits) {
    /** Apache's {@code socket.request.max.bytes} default: 100 MiB. */
    public static final int DEFAULT_MAX_FRAME_BYTES = 100 * 1024 * 1024;
    /**
     * Apache's {@code socket.send.buffer.bytes} and {@code socket.receive.buffer.bytes} default. The
     * bound matters to consumers: with the kernel's autotuned buffers a consumer read at 0.64-0.73x
     * Apache's rate on the benchmark machine, with this one at 0.8-1.1x (docs/perf/consume.md).
     */
    public static final int DEFAULT_SOCKET_BUFFER_BYTES = 100 * 1024;
    /**
     * A TLS connection's send buffer, unless set: the OS sizes it (Linux grows it up to {@code tcp_wmem}'s
     * maximum). A TLS response is encrypted before it is written, so a bounded buffer has the event loop wake
     * and write once per ~100 KiB the client reads, and the client waits for each wake-up: with 102400 a TLS
     * consumer read at 0.73x Apache's rate, with the OS's buffer at 0.89-0.92x (docs/perf/2026-12-02-security.md).
     * Plaintext Fetch is sendfile, which the bounded buffer suits better (above).
     */
    public static final int DEFAULT_TLS_SEND_BUFFER_BYTES = -1;
    /** Apache's {@code connections.max.idle.ms} default: 10 minutes. */
    public static final long DEFAULT_CONNECTIONS_MAX_IDLE_MS = 600_000L;
}
