package io.kaas.adapter.wire;

import io.kaas.adapter.wire.codec.KafkaFrameDecoder;
import io.kaas.adapter.wire.codec.ReceiveLowWater;
import io.kaas.adapter.wire.dispatch.ApiRegistry;
import io.kaas.adapter.wire.dispatch.EventLoopTicks;
import io.kaas.adapter.wire.dispatch.KafkaApiDispatcher;
import io.kaas.adapter.wire.dispatch.SaslServerAuthenticator;
import io.kaas.adapter.wire.tls.FileRegionReader;
import io.kaas.adapter.wire.tls.ReloadingSslContext;
import io.kaas.adapter.wire.tls.TlsPrincipalHandler;
import io.kaas.application.port.in.ConnectionAdmission;
import io.kaas.application.port.in.Tracer;
import io.kaas.application.port.in.TrafficMetrics;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.unix.Errors;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Kafka listeners: one server socket per listener, whose connections each get a frame decoder
 * and a dispatcher (with the pre-authentication gate on a SASL listener), behind a TLS handler on a
 * TLS listener; the connections of all listeners share one set of event loops ({@link Transport}). An
 * accepted connection reaches an event loop only once the connection limits let it ({@link ConnectionGate},
 * on the accepting loop).
 */
public final class KafkaServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(KafkaServer.class);

    /**
     * Name prefix of the connections' event-loop threads ({@code kaas-net-<group>-<n>}), by which the
     * integration tests' file guard tells an event loop from an I/O thread.
     */
    public static final String EVENT_LOOP_THREADS = "kaas-net";
    /** Name prefix of the thread accepting connections. */
    public static final String ACCEPTOR_THREADS = "kaas-accept";
    /** The name of the one listener {@link #start(WireSettings, ApiRegistry, Executor)} binds. */
    public static final String DEFAULT_LISTENER = "plain";

    /** Linux's errno for a taken address: epoll, which only runs there, reports a taken port by it. */
    private static final int EADDRINUSE = 98;
    /** How often each event loop notes that it runs. */
    private static final long TICK_INTERVAL_MS = 250;

    /** The event loops every listener's connections share. */
    private final EventLoops loops;
    /** The bound listeners' server channels by listener name, in declaration order. */
    private final Map<String, Channel> serverChannels;
    /** The TLS listeners' contexts, each watching its files until closed. */
    private final List<ReloadingSslContext> sslContexts;
    private final EventLoopTicks ticks;

    private KafkaServer(EventLoops loops, Map<String, Channel> serverChannels,
                        List<ReloadingSslContext> sslContexts) {
        this.loops = loops;
        this.serverChannels = serverChannels;
        this.sslContexts = sslContexts;
        this.ticks = new EventLoopTicks(List.of(loops.workers()), TICK_INTERVAL_MS);
    }

    /** The thread accepting connections and the event loops serving them, on their transport. */
    private record EventLoops(Transport transport, EventLoopGroup acceptor, EventLoopGroup workers) {
        static EventLoops start(Transport transport, int threads) {
            return new EventLoops(transport,
                    new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory(ACCEPTOR_THREADS, true),
                            transport.ioHandlers()),
                    new MultiThreadIoEventLoopGroup(threads, new DefaultThreadFactory(EVENT_LOOP_THREADS, true),
                            transport.ioHandlers()));
        }

        void shutdown(long quietMs, long timeoutMs) {
            acceptor.shutdownGracefully(quietMs, timeoutMs, TimeUnit.MILLISECONDS).syncUninterruptibly();
            workers.shutdownGracefully(quietMs, timeoutMs, TimeUnit.MILLISECONDS).syncUninterruptibly();
        }
    }

    /**
     * Binds one listener without authentication on {@code settings.port()}.
     *
     * @param settings         where to listen and the per-connection limits
     * @param registry         the served APIs
     * @param blockingExecutor runs the handlers of blocking APIs (admin operations that fsync), off the event loops
     */
    public static KafkaServer start(WireSettings settings, ApiRegistry registry, Executor blockingExecutor)
            throws InterruptedException {
        return start(settings, List.of(WireListener.plaintext(DEFAULT_LISTENER, settings.port(), registry)),
                blockingExecutor, TrafficMetrics.NONE, Tracer.NONE, ConnectionAdmission.UNLIMITED);
    }

    /**
     * Binds every listener on {@code settings.host()}, each on its own port; their connections share
     * the event loops. The first listener is the primary one ({@link #port()}).
     *
     * @param settings         the bind host and the per-connection limits ({@code settings.port()} is not used)
     * @param listeners        the listeners, with distinct names and ports
     * @param blockingExecutor runs the handlers of blocking APIs (admin operations that fsync), off the event loops,
     *                         and, on TLS listeners, reads the segment-file bytes a Fetch answers with
     * @param metrics          counts each listener's connections and each API's requests
     * @param tracer           traces the requests it samples
     * @param admission        the connection limits each accepted connection must pass before it is served
     * @throws IllegalArgumentException when a TLS listener's files are missing or unusable
     */
    public static KafkaServer start(WireSettings settings, List<WireListener> listeners, Executor blockingExecutor,
                                    TrafficMetrics metrics, Tracer tracer, ConnectionAdmission admission)
            throws InterruptedException {
        if (listeners.isEmpty()) {
            throw new IllegalArgumentException("at least one listener");
        }
        EventLoops loops = EventLoops.start(Transport.available(), settings.ioThreads());
        Map<String, Channel> bound = new LinkedHashMap<>();
        List<ReloadingSslContext> sslContexts = new ArrayList<>();
        try {
            for (WireListener listener : listeners) {
                if (bound.containsKey(listener.name())) {
                    throw new IllegalArgumentException("listener " + listener.name() + " is declared twice");
                }
                ReloadingSslContext ssl = null;
                if (listener.tls() != null) {
                    ssl = ReloadingSslContext.load(listener.name(), listener.tls().settings());
                    sslContexts.add(ssl);
                }
                bound.put(listener.name(), bind(settings, listener, ssl, loops, blockingExecutor,
                        metrics, tracer, new ConnectionGate(listener.name(), admission, metrics)));
                LOG.debug("listener {} bound to port {} ({}){}{}", listener.name(),
                        ((InetSocketAddress) bound.get(listener.name()).localAddress()).getPort(), loops.transport(),
                        ssl != null ? ", TLS" : "", listener.authenticates() ? ", SASL " + listener.saslMechanisms() : "");
            }
            sslContexts.forEach(ReloadingSslContext::startWatching);
            return new KafkaServer(loops, bound, sslContexts);
        } catch (Exception e) {
            // Exception, not RuntimeException: a failed bind's BindException comes undeclared (bound()).
            sslContexts.forEach(ReloadingSslContext::close);
            bound.values().forEach(Channel::close);
            loops.shutdown(0, 0);
            throw e;
        }
    }

    /**
     * @param ssl  the listener's TLS context; null for plaintext
     * @param gate lets an accepted connection on to an event loop once the connection limits allow it
     */
    private static Channel bind(WireSettings settings, WireListener listener, ReloadingSslContext ssl,
                                EventLoops loops, Executor blockingExecutor,
                                TrafficMetrics metrics, Tracer tracer, ConnectionGate gate) throws InterruptedException {
        ServerBootstrap bootstrap = socketBuffers(new ServerBootstrap(), settings, ssl != null)
                .group(loops.acceptor(), loops.workers())
                .channel(loops.transport().serverChannel())
                .handler(gate)
                .option(ChannelOption.SO_BACKLOG, 1024)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.SO_KEEPALIVE, true)
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(1 << 20, 4 << 20))
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        metrics.connectionOpened(listener.name());
                        ch.closeFuture().addListener(closed -> metrics.connectionClosed(listener.name()));
                        if (settings.connectionsMaxIdleMs() > 0) {
                            ch.pipeline().addLast("idle", new IdleStateHandler(0, 0,
                                    settings.connectionsMaxIdleMs(), TimeUnit.MILLISECONDS));
                        }
                        if (ssl != null) {
                            // a Fetch's file regions become buffers (off the loop) before the SslHandler encrypts
                            // them; the principal is set when the handshake completes, before the first request
                            ch.pipeline().addLast("tls", ssl.newHandler(ch.alloc()));
                            ch.pipeline().addLast("file-regions", new FileRegionReader(blockingExecutor));
                            ch.pipeline().addLast("tls-principal",
                                    new TlsPrincipalHandler(listener.tls().principalMapping()));
                        }
                        // a TLS record per wake-up is what SO_RCVLOWAT saves; a plaintext client writes a request at once
                        ReceiveLowWater lowWater = ssl != null && loops.transport() == Transport.EPOLL
                                ? ReceiveLowWater.behindTls() : ReceiveLowWater.off();
                        if (listener.authenticates()) {
                            ch.pipeline().addLast("frames", new KafkaFrameDecoder(Math.min(settings.maxFrameBytes(),
                                    SaslServerAuthenticator.MAX_RECEIVE_BYTES_BEFORE_AUTHENTICATION), lowWater));
                            ch.pipeline().addLast("apis", new KafkaApiDispatcher(listener.registry(), settings.limits(),
                                    blockingExecutor, listener.newAuthenticator(), settings.maxFrameBytes(), metrics, tracer));
                        } else {
                            ch.pipeline().addLast("frames", new KafkaFrameDecoder(settings.maxFrameBytes(), lowWater));
                            ch.pipeline().addLast("apis", new KafkaApiDispatcher(listener.registry(), settings.limits(),
                                    blockingExecutor, null, settings.maxFrameBytes(), metrics, tracer));
                        }
                    }
                });
        return bound(bootstrap.bind(settings.host(), listener.port()).await(), settings.host(), listener.port());
    }

    /**
     * The bound channel, or the bind's failure thrown undeclared as Netty's {@code sync()} throws it — a taken port
     * as a {@link BindException} on either transport (epoll reports it as its own native error), which is what
     * the broker's start and its tests know it by.
     */
    private static Channel bound(ChannelFuture bind, String host, int port) {
        if (bind.isSuccess()) {
            return bind.channel();
        }
        Throwable failure = bind.cause();
        if (failure instanceof Errors.NativeIoException nativeError && nativeError.expectedErr() == -EADDRINUSE) {
            failure = new BindException("Address already in use: " + host + ":" + port).initCause(failure);
        }
        throw KafkaServer.<RuntimeException>undeclared(failure);
    }

    @SuppressWarnings("unchecked")
    private static <T extends Throwable> T undeclared(Throwable failure) throws T {
        throw (T) failure;
    }

    private static ServerBootstrap socketBuffers(ServerBootstrap bootstrap, WireSettings settings, boolean tls) {
        int sendBufferBytes = tls ? settings.tlsSendBufferBytes() : settings.sendBufferBytes();
        if (sendBufferBytes > 0) {
            bootstrap.childOption(ChannelOption.SO_SNDBUF, sendBufferBytes);
        }
        if (settings.receiveBufferBytes() > 0) {
            // on the listening socket too, as Apache does: accepted sockets inherit it before the handshake
            bootstrap.option(ChannelOption.SO_RCVBUF, settings.receiveBufferBytes());
            bootstrap.childOption(ChannelOption.SO_RCVBUF, settings.receiveBufferBytes());
        }
        return bootstrap;
    }

    /** The primary (first) listener's bound port (useful when 0 asked for an ephemeral one). */
    public int port() {
        return boundPort(serverChannels.values().iterator().next());
    }

    /** A listener's bound port. */
    public int port(String listener) {
        Channel channel = serverChannels.get(listener);
        if (channel == null) {
            throw new IllegalArgumentException("no listener " + listener + " (listeners: " + serverChannels.keySet() + ")");
        }
        return boundPort(channel);
    }

    private static int boundPort(Channel channel) {
        return ((InetSocketAddress) channel.localAddress()).getPort();
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
        loops.workers().forEach(loop -> loop.execute(() -> {
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
        sslContexts.forEach(ReloadingSslContext::close);
        serverChannels.values().forEach(channel -> channel.close().syncUninterruptibly());
        loops.shutdown(0, 2_000);
        LOG.debug("listeners {} closed", serverChannels.keySet());
    }
}
