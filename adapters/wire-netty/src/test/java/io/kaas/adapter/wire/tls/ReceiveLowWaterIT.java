package io.kaas.adapter.wire.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.awaitility.Awaitility.await;

import io.kaas.adapter.wire.Transport;
import io.kaas.adapter.wire.codec.KafkaFrameDecoder;
import io.kaas.adapter.wire.codec.ReceiveLowWater;
import io.kaas.domain.security.SslPrincipalMapping;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.unix.IntegerUnixChannelOption;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SO_RCVLOWAT on a TLS listener's connection, in the kernel: a JDK TLS client writes a 1 MiB frame as 16 KiB
 * TLS records, a millisecond apart, as a Java producer does; each record used to wake the event loop. With the
 * frame's size known, the connection asks the kernel for its missing bytes less one TLS record, and the loop wakes
 * a handful of times for the rest of the frame, which arrives whole.
 */
class ReceiveLowWaterIT {
    private static final TestPki.Ca CA = TestPki.Ca.create("low-water-ca");
    private static final ChannelOption<Integer> SO_RCVLOWAT = new IntegerUnixChannelOption("SO_RCVLOWAT", 1, 18);
    private static final int FRAME = 1 << 20;
    private static final int RECORD = 16 * 1024;

    @TempDir
    Path dir;

    private final Queue<byte[]> frames = new ConcurrentLinkedQueue<>();
    /** Times the event loop read the connection's socket until it had no more (or enough) bytes for now. */
    private final AtomicInteger wakeUps = new AtomicInteger();

    @Test
    void theRestOfALargeFrameWakesTheLoopAFewTimesNotOncePerTlsRecord() throws Exception {
        assumeTrue(Transport.available() == Transport.EPOLL,
                "SO_RCVLOWAT needs the native epoll transport: " + Epoll.unavailabilityCause());
        byte[] body = new byte[FRAME];
        new Random(42).nextBytes(body);
        CA.server().writeTo(dir.resolve("tls.crt"), dir.resolve("tls.key"));
        try (ReloadingSslContext tls = ReloadingSslContext.load("test",
                     TlsSettings.server(dir.resolve("tls.crt"), dir.resolve("tls.key")));
             TlsTestServer server = TlsTestServer.start(tls, SslPrincipalMapping.DEFAULT, () -> List.<ChannelHandler>of(
                     new KafkaFrameDecoder(2 * FRAME, ReceiveLowWater.behindTls()), new FrameCollector()));
             SSLSocket socket = (SSLSocket) TlsClients.context(CA.certificate(), null).getSocketFactory()
                     .createSocket("127.0.0.1", server.port())) {
            socket.startHandshake();
            Channel connection = await().until(() -> server.accepted(), accepted -> accepted.size() == 1).get(0);
            connection.pipeline().addFirst("wake-ups", new ChannelInboundHandlerAdapter() {
                @Override
                public void channelReadComplete(ChannelHandlerContext ctx) {
                    wakeUps.incrementAndGet();
                    ctx.fireChannelReadComplete();
                }
            });
            OutputStream out = socket.getOutputStream();
            out.write(ByteBuffer.allocate(4).putInt(FRAME).array());
            out.write(body, 0, 4 * RECORD);
            out.flush();
            // set when the size arrived: what the frame lacked then, less one TLS record (the first records may
            // still be waiting below it, unread: the kernel holds them until enough follows)
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(lowWater(connection))
                    .as("SO_RCVLOWAT: the missing bytes less one TLS record")
                    .isBetween(FRAME - 4 * RECORD - 20_000, FRAME - 16_384));

            int wakeUpsBefore = wakeUps.get();
            for (int offset = 4 * RECORD; offset < FRAME; offset += RECORD) {
                out.write(body, offset, RECORD);
                out.flush();
                Thread.sleep(1); // the stimulus, not a wait: records spaced as a producer's encryption spaces them
            }
            await().atMost(Duration.ofSeconds(10)).until(() -> !frames.isEmpty());
            assertThat(frames.poll()).as("the frame, whole").isEqualTo(body);
            assertThat(wakeUps.get() - wakeUpsBefore).as("read bursts for the frame's last 60 TLS records")
                    .isBetween(1, 8);
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(lowWater(connection))
                    .as("back to every byte between frames").isEqualTo(1));

            out.write(ByteBuffer.allocate(4 + 3).putInt(3).put(new byte[] {7, 8, 9}).array());
            out.flush();
            await().atMost(Duration.ofSeconds(10)).until(() -> !frames.isEmpty());
            assertThat(frames.poll()).containsExactly(7, 8, 9);
            assertThat(lowWater(connection)).as("a small frame never raises it").isEqualTo(1);
        }
    }

    /** Keeps each frame's bytes. */
    private final class FrameCollector extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf frame = (ByteBuf) msg;
            frames.add(ByteBufUtil.getBytes(frame));
            frame.release();
        }
    }

    private static int lowWater(Channel connection) throws Exception {
        return connection.eventLoop().submit(() -> connection.config().getOption(SO_RCVLOWAT)).get();
    }
}
