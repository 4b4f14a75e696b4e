package io.kaas.adapter.heartbeat;

import io.grpc.Server;
import io.grpc.netty.NettyServerBuilder;
import io.kaas.application.port.out.HeartbeatTransport;
import io.kaas.application.port.out.HeartbeatTransport.Beat;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The controller's end of the heartbeat streams: a gRPC server on this broker's heartbeat port.
 * Closing it ends every stream, so the brokers reconnect (to the next controller on this port).
 */
final class HeartbeatServer implements HeartbeatTransport.Server {
    private static final Logger LOG = LoggerFactory.getLogger(HeartbeatServer.class);
    /** How long close() waits for the streams to end before cutting them, and again after. */
    private static final Duration CLOSE_GRACE = Duration.ofSeconds(1);

    private final Server server;
    private final BrokerStreams streams;
    private final AtomicBoolean closed = new AtomicBoolean();

    private HeartbeatServer(Server server, BrokerStreams streams) {
        this.server = server;
        this.streams = streams;
    }

    /**
     * Listens on {@code address}, on {@code threads}.
     *
     * @throws UncheckedIOException if the port cannot be bound
     */
    static HeartbeatServer start(InetSocketAddress address, Consumer<Beat> beats, TransportThreads threads) {
        BrokerStreams streams = new BrokerStreams(beats);
        Server server = NettyServerBuilder.forAddress(address)
                .channelType(NioServerSocketChannel.class)
                .bossEventLoopGroup(threads.io())
                .workerEventLoopGroup(threads.io())
                .executor(threads.scheduler())
                .addService(streams)
                .maxInboundMessageSize(GrpcHeartbeatTransport.MAX_MESSAGE_BYTES)
                // Pings of our own find brokers that vanished without a FIN. Theirs come every KEEPALIVE_TIME
                // at most; allowing twice that rate keeps a jittery ping from counting as abuse (GOAWAY).
                .keepAliveTime(GrpcHeartbeatTransport.KEEPALIVE_TIME.toMillis(), TimeUnit.MILLISECONDS)
                .keepAliveTimeout(GrpcHeartbeatTransport.KEEPALIVE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                .permitKeepAliveTime(GrpcHeartbeatTransport.KEEPALIVE_TIME.toMillis() / 2, TimeUnit.MILLISECONDS)
                .build();
        try {
            server.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot listen for heartbeats on " + address, e);
        }
        LOG.info("Heartbeat server listening on {}:{}", address.getHostString(), server.getPort());
        return new HeartbeatServer(server, streams);
    }

    /** The bound port: the configured one, or the one the system chose for port 0. */
    int port() {
        return server.getPort();
    }

    boolean isClosed() {
        return closed.get();
    }

    /** Streams open now; for tests. */
    int openStreams() {
        return streams.size();
    }

    @Override
    public void pushAssignmentChanged(long controllerEpoch, long version) {
        int brokers = streams.pushAssignmentChanged(controllerEpoch, version);
        LOG.info("Pushed ASSIGNMENT_CHANGED (controller epoch {}, assignment version {}) to {} brokers",
                controllerEpoch, version, brokers);
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        int port = server.getPort();
        int ended = streams.endAll();
        boolean clean = BoundedShutdown.stop(server::shutdown, server::shutdownNow, server::awaitTermination, CLOSE_GRACE);
        LOG.info("Heartbeat server on port {} closed: {} streams ended{}", port, ended, clean ? "" : ", not terminated in time");
    }
}
