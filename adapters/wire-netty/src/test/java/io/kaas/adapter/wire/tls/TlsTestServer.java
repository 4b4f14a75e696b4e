package io.kaas.adapter.wire.tls;

import io.kaas.adapter.wire.Transport;
import io.kaas.domain.security.SslPrincipalMapping;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * A Netty server on 127.0.0.1, on a TLS listener's {@link Transport}, whose connections get the pipeline a TLS
 * listener will have: the {@link io.netty.handler.ssl.SslHandler} from a {@link ReloadingSslContext}, the
 * {@link FileRegionReader} (on an I/O thread of its own), the {@link TlsPrincipalHandler}, then the test's
 * application handlers.
 */
final class TlsTestServer implements AutoCloseable {
    private final EventLoopGroup loops;
    private final ExecutorService io;
    private final Channel server;
    private final Queue<Channel> accepted;
    private final Queue<Throwable> handshakeFailures;

    private TlsTestServer(EventLoopGroup loops, ExecutorService io, Channel server, Queue<Channel> accepted,
                          Queue<Throwable> handshakeFailures) {
        this.loops = loops;
        this.io = io;
        this.server = server;
        this.accepted = accepted;
        this.handshakeFailures = handshakeFailures;
    }

    static TlsTestServer start(ReloadingSslContext tls, SslPrincipalMapping mapping,
                               Supplier<List<ChannelHandler>> application) throws InterruptedException {
        Transport transport = Transport.available();
        EventLoopGroup loops = new MultiThreadIoEventLoopGroup(2, transport.ioHandlers());
        ExecutorService io = Executors.newSingleThreadExecutor();
        Queue<Channel> accepted = new ConcurrentLinkedQueue<>();
        Queue<Throwable> handshakeFailures = new ConcurrentLinkedQueue<>();
        Channel server = new ServerBootstrap()
                .group(loops)
                .channel(transport.serverChannel())
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        accepted.add(ch);
                        ch.pipeline().addLast("tls", tls.newHandler(ch.alloc()));
                        ch.pipeline().addLast("tls-file-regions", new FileRegionReader(io));
                        ch.pipeline().addLast("tls-principal", new TlsPrincipalHandler(mapping));
                        ch.pipeline().addLast("handshake-failures", new ChannelInboundHandlerAdapter() {
                            @Override
                            public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
                                if (event instanceof SslHandshakeCompletionEvent done && !done.isSuccess()) {
                                    handshakeFailures.add(done.cause());
                                }
                                ctx.fireUserEventTriggered(event);
                            }
                        });
                        application.get().forEach(ch.pipeline()::addLast);
                    }
                })
                .bind("127.0.0.1", 0).sync().channel();
        return new TlsTestServer(loops, io, server, accepted, handshakeFailures);
    }

    int port() {
        return ((InetSocketAddress) server.localAddress()).getPort();
    }

    /** Every connection accepted so far, open or not. */
    List<Channel> accepted() {
        return List.copyOf(accepted);
    }

    /** Why the handshakes that failed did, in order. */
    List<Throwable> handshakeFailures() {
        return List.copyOf(handshakeFailures);
    }

    @Override
    public void close() {
        server.close().syncUninterruptibly();
        loops.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        io.shutdownNow();
    }
}
