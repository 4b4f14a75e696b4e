package io.kaas.adapter.wire;

import io.kaas.adapter.wire.codec.KafkaFrameDecoder;
import io.kaas.adapter.wire.dispatch.ApiRegistry;
import io.kaas.adapter.wire.dispatch.EventLoopTicks;
import io.kaas.adapter.wire.dispatch.KafkaApiDispatcher;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.InetSocketAddress;
import java.util.concurrent.Executor;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The Kafka listener: a Netty server whose connections each get a frame decoder and a dispatcher. */
public final class KafkaServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(KafkaServer.class);

    /**
     * Name prefix of the connections' event-loop threads ({@code kaas-net-<group>-<n>}), by which the
     * integration tests' file guard tells an event loop from an I/O thread.
     */
    public static final String EVENT_LOOP_THREADS = "kaas-net";
    /** Name prefix of the thread accepting connections. */
    public static final String ACCEPTOR_THREADS = "kaas-accept";

    /** How often each event loop notes that it runs. */
    private static final long TICK_INTERVAL_MS = 250;

    private final EventLoopGroup acceptor;
    private final EventLoopGroup workers;
    private final Channel serverChannel;
    private final EventLoopTicks ticks;

    private KafkaServer(EventLoopGroup acceptor, EventLoopGroup workers, Channel serverChannel) {
        this.acceptor = acceptor;
        this.workers = workers;
        this.serverChannel = serverChannel;
        this.ticks = new EventLoopTicks(workers, TICK_INTERVAL_MS);
    }

    /**
     * Binds the listener.
     *
     * @param settings         where to listen and the per-connection limits
     * @param registry         the served APIs
     * @param blockingExecutor runs the handlers of blocking APIs (admin operations that fsync), off the event loops
     */
    public static KafkaServer start(WireSettings settings, ApiRegistry registry, Executor blockingExecutor)
            throws InterruptedException {
        EventLoopGroup acceptor = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory(ACCEPTOR_THREADS, true),
                NioIoHandler.newFactory());
        EventLoopGroup workers = new MultiThreadIoEventLoopGroup(settings.ioThreads(),
                new DefaultThreadFactory(EVENT_LOOP_THREADS, true), NioIoHandler.newFactory());
        try {
            ServerBootstrap bootstrap = socketBuffers(new ServerBootstrap(), settings)
                    .group(acceptor, workers)
                    .channel(NioServerSocketChannel.class)
                    .option(ChannelOption.SO_BACKLOG, 1024)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childOption(ChannelOption.SO_KEEPALIVE, true)
                    .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(1 << 20, 4 << 20))
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            if (settings.connectionsMaxIdleMs() > 0) {
                                ch.pipeline().addLast("idle", new IdleStateHandler(0, 0,
                                        settings.connectionsMaxIdleMs(), TimeUnit.MILLISECONDS));
                            }
                            ch.pipeline().addLast("frames", new KafkaFrameDecoder(settings.maxFrameBytes()));
                            ch.pipeline().addLast("apis", new KafkaApiDispatcher(registry, settings.limits(), blockingExecutor));
                        }
                    });
            Channel channel = bootstrap.bind(settings.host(), settings.port()).sync().channel();
            return new KafkaServer(acceptor, workers, channel);
        } catch (Exception e) {
            // Exception, not RuntimeException: sync() rethrows a failed bind's BindException undeclared.
            acceptor.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
            workers.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
            throw e;
        }
    }

    private static ServerBootstrap socketBuffers(ServerBootstrap bootstrap, WireSettings settings) {
        if (settings.sendBufferBytes() > 0) {
            bootstrap.childOption(ChannelOption.SO_SNDBUF, settings.sendBufferBytes());
        }
        if (settings.receiveBufferBytes() > 0) {
            // on the listening socket too, as Apache does: accepted sockets inherit it before the handshake
            bootstrap.option(ChannelOption.SO_RCVBUF, settings.receiveBufferBytes());
            bootstrap.childOption(ChannelOption.SO_RCVBUF, settings.receiveBufferBytes());
        }
        return bootstrap;
    }

    /** The bound port (useful when 0 asked for an ephemeral one). */
    public int port() {
        return ((InetSocketAddress) serverChannel.localAddress()).getPort();
    }

    /** How long ago the most behind event loop last ran its tick: large when one is wedged. */
    public long oldestLoopTickAgeMs() {
        return ticks.oldestTickAgeMs();
    }

    /**
     * A test hook: blocks every network event loop for {@code ms}, as a runaway handler would, so a
     * test can watch a wedged broker be evicted. Deliberately the one blocking call on a loop.
     */
    public void wedgeEventLoops(long ms) {
        workers.forEach(loop -> loop.execute(() -> {
            try {
                new CountDownLatch(1).await(ms, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }));
        LOG.warn("test hook: every network event loop wedged for {} ms", ms);
    }

    /** Stops accepting, closes every connection and waits for the event loops to finish. */
    @Override
    public void close() {
        ticks.close();
        serverChannel.close().syncUninterruptibly();
        acceptor.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        workers.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        LOG.debug("listener on port {} closed", port());
    }
}
