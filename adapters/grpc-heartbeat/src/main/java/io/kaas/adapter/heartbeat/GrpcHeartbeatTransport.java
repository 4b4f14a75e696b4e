package io.kaas.adapter.heartbeat;

import io.kaas.application.port.out.HeartbeatTransport;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * {@link HeartbeatTransport} over gRPC: each broker keeps one bidirectional stream
 * ({@code kaas.heartbeat.v1.Heartbeats/Stream}) to the controller. A long-lived stream gives the
 * controller a way to push ASSIGNMENT_CHANGED without brokers polling, and HTTP/2 keepalive notices a
 * peer that vanished without closing its socket.
 *
 * <p>One transport per broker process: it serves (while this broker is the controller) and dials
 * (always), on threads it owns and {@link #close() stops}. A server can be closed and served again,
 * so a broker that loses and regains the controller role reuses its transport.
 */
public final class GrpcHeartbeatTransport implements HeartbeatTransport, AutoCloseable {
    /** The port's "every second". */
    static final Duration BEAT_INTERVAL = Duration.ofSeconds(1);
    /** A ping goes out after this long without a frame from the peer (gRPC's minimum for clients)... */
    static final Duration KEEPALIVE_TIME = Duration.ofSeconds(10);
    /** ...and the connection is dead if the ping is not answered within this. */
    static final Duration KEEPALIVE_TIMEOUT = Duration.ofSeconds(5);
    /** Every message is a few dozen bytes; anything far larger is not a peer of ours. */
    static final int MAX_MESSAGE_BYTES = 4096;

    private final String bindHost;
    private final int port;
    private final Duration beatInterval;
    private final TransportThreads threads;
    private final List<HeartbeatClient> clients = new ArrayList<>();
    private HeartbeatServer server;
    private boolean closed;

    /**
     * @param bindHost the address {@link #serve} listens on
     * @param port this broker's heartbeat port; 0 takes an ephemeral one (see {@link #port()})
     */
    public GrpcHeartbeatTransport(String bindHost, int port) {
        this(bindHost, port, BEAT_INTERVAL);
    }

    /** With another beat interval, for tests. */
    GrpcHeartbeatTransport(String bindHost, int port, Duration beatInterval) {
        if (port < 0 || port > 0xFFFF) {
            throw new IllegalArgumentException("heartbeat port out of range: " + port);
        }
        if (beatInterval.toMillis() <= 0) {
            throw new IllegalArgumentException("beat interval must be at least 1 ms: " + beatInterval);
        }
        this.bindHost = bindHost;
        this.port = port;
        this.beatInterval = beatInterval;
        this.threads = new TransportThreads();
    }

    /**
     * @throws IllegalStateException if this transport is already serving
     * @throws java.io.UncheckedIOException if the port cannot be bound
     */
    @Override
    public synchronized Server serve(Consumer<Beat> beats) {
        requireOpen();
        if (server != null && !server.isClosed()) {
            throw new IllegalStateException("already serving heartbeats on port " + server.port());
        }
        server = HeartbeatServer.start(new InetSocketAddress(bindHost, port), beats, threads);
        return server;
    }

    @Override
    public synchronized Client dial(String host, int port, int brokerId, BooleanSupplier healthy,
                                   BooleanSupplier draining, Runnable assignmentChanged) {
        requireOpen();
        clients.removeIf(HeartbeatClient::isClosed);
        HeartbeatClient client = HeartbeatClient.start(host, port, new BeatSource(brokerId, healthy, draining),
                assignmentChanged, beatInterval, threads);
        clients.add(client);
        return client;
    }

    /**
     * The port the open server listens on: the configured one, or the one the system chose for 0.
     *
     * @throws IllegalStateException if not serving
     */
    public synchronized int port() {
        if (server == null || server.isClosed()) {
            throw new IllegalStateException("not serving heartbeats");
        }
        return server.port();
    }

    /** Closes every client and the server of this transport, then stops its threads; a few seconds at most. */
    @Override
    public void close() {
        List<HeartbeatClient> dialed;
        HeartbeatServer served;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            dialed = List.copyOf(clients);
            served = server;
        }
        dialed.forEach(HeartbeatClient::close);
        if (served != null) {
            served.close();
        }
        threads.close();
    }

    private void requireOpen() {
        if (closed) {
            throw new IllegalStateException("heartbeat transport closed");
        }
    }
}
