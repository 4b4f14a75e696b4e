package io.kaas.adapter.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kaas.application.metrics.BrokerMetrics;
import io.kaas.application.port.in.ConnectionAdmission;
import io.kaas.application.port.in.ConnectionAdmission.Decision;
import io.kaas.application.port.in.ConnectionAdmission.Verdict;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The accept path under {@link ConnectionAdmission}'s decisions, on real sockets: a connection reaches an event loop
 * only once accepted; a refused one is closed at once; while one waits the listener accepts nothing more, and a freed
 * slot lets the held ones in, in order.
 */
class ConnectionGateIT {
    private final ScriptedAdmission admission = new ScriptedAdmission();
    private final BrokerMetrics metrics = BrokerMetrics.unobserved();
    private final List<Channel> served = new CopyOnWriteArrayList<>();
    private final List<Socket> clients = new ArrayList<>();
    private EventLoopGroup acceptor;
    private EventLoopGroup workers;
    private Channel server;

    @BeforeEach
    void listen() throws InterruptedException {
        acceptor = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        workers = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        server = new ServerBootstrap().group(acceptor, workers).channel(NioServerSocketChannel.class)
                .handler(new ConnectionGate("l", admission, metrics))
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        served.add(ch);
                    }
                })
                .bind("127.0.0.1", 0).sync().channel();
    }

    @AfterEach
    void stop() throws IOException {
        for (Socket client : clients) {
            client.close();
        }
        server.close().syncUninterruptibly();
        acceptor.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        workers.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    @Test
    void aRefusedConnectionIsClosedAtOnceUnservedAndCounted() throws IOException {
        admission.next.set(new Decision(Verdict.REFUSE, 0, "max.connections.per.ip", 2));
        Socket client = connect();

        assertThat(client.getInputStream().read()).as("end of stream: closed by the broker").isEqualTo(-1);
        assertThat(served).isEmpty();
        assertThat(metrics.listener("l").refused().get("max.connections.per.ip").sum()).isEqualTo(1);
        assertThat(admission.closed).as("never accepted, never released").hasValue(0);
    }

    @Test
    void whileAConnectionWaitsNothingMoreIsServedUntilASlotFrees() throws IOException {
        admission.next.set(Decision.ACCEPT);
        Socket first = connect();
        await().atMost(Duration.ofSeconds(10)).until(() -> served.size() == 1);

        admission.next.set(new Decision(Verdict.WAIT, 0, "max.connections", 1));
        connect();
        await().atMost(Duration.ofSeconds(10)).until(() -> admission.attempts.get() == 2);
        connect(); // in the kernel's backlog, or held behind the second
        await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(5)).until(() -> served.size() == 1);
        assertThat(metrics.listener("l").held().get("max.connections").sum()).isEqualTo(1);

        admission.next.set(Decision.ACCEPT);
        first.close();
        await().atMost(Duration.ofSeconds(10)).until(() -> admission.closed.get() == 1);
        await().atMost(Duration.ofSeconds(10)).until(() -> served.size() == 3);
    }

    @Test
    void aDelayedConnectionIsAskedAgainAfterItsDelayAndServed() throws IOException {
        admission.next.set(new Decision(Verdict.DELAY, 300, "max.connection.creation.rate", 2));
        admission.thenAccept = true;
        long start = System.nanoTime();
        connect();

        await().atMost(Duration.ofSeconds(10)).until(() -> served.size() == 1);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(300));
        assertThat(admission.proceeds).hasValue(2);
    }

    private Socket connect() throws IOException {
        Socket socket = new Socket();
        clients.add(socket);
        socket.setSoTimeout(10_000);
        socket.connect(new InetSocketAddress("127.0.0.1", ((InetSocketAddress) server.localAddress()).getPort()));
        return socket;
    }

    /** Answers every proceed with {@link #next}; with {@link #thenAccept}, a second proceed accepts. */
    private static final class ScriptedAdmission implements ConnectionAdmission {
        final AtomicReference<Decision> next = new AtomicReference<>(Decision.ACCEPT);
        final AtomicInteger attempts = new AtomicInteger();
        final AtomicInteger proceeds = new AtomicInteger();
        final AtomicInteger closed = new AtomicInteger();
        volatile boolean thenAccept;
        final List<Runnable> watchers = new CopyOnWriteArrayList<>();

        @Override
        public Attempt attempt(String listener, String ip) {
            attempts.incrementAndGet();
            AtomicInteger asked = new AtomicInteger();
            return new Attempt() {
                @Override
                public Decision proceed() {
                    proceeds.incrementAndGet();
                    return thenAccept && asked.incrementAndGet() > 1 ? Decision.ACCEPT : next.get();
                }

                @Override
                public void closed() {
                    closed.incrementAndGet();
                    watchers.forEach(Runnable::run);
                }
            };
        }

        @Override
        public void whenSlotsMayHaveFreed(Runnable watcher) {
            watchers.add(watcher);
        }
    }
}
