package io.kaas.adapter.wire.codec;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.adapter.wire.WireSettings;
import io.kaas.adapter.wire.support.NettyLeakDetection;
import io.kaas.adapter.wire.support.RecordingAllocator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Framing of the byte stream: whatever the read boundaries, each size-prefixed frame comes out
 * once, whole and in order; a size outside [0, cap] closes the connection and nothing follows it.
 * A small cap (16 bytes) keeps the boundary cases readable.
 */
@ExtendWith(NettyLeakDetection.class)
class KafkaFrameDecoderTest {
    private static final int CAP = 16;

    private final RecordingAllocator allocator = new RecordingAllocator();
    private final List<ByteBuf> written = new ArrayList<>();
    private EmbeddedChannel channel;

    @AfterEach
    void nothingLeaks() {
        if (channel != null) {
            channel.finishAndReleaseAll();
        }
        assertThat(written.stream().filter(b -> b.refCnt() != 0).toList()).as("input buffers not released").isEmpty();
        allocator.assertAllReleased();
    }

    @Test
    void aFrameSplitAcrossReadsIsEmittedOnceComplete() {
        decoder(CAP);
        byte[] wire = framed("hello, kafka");

        read(slice(wire, 0, 2));          // half the size prefix
        read(slice(wire, 2, 5));          // rest of the prefix and the first byte
        assertThat(channel.inboundMessages()).as("frames emitted before the frame was complete").isEmpty();
        read(slice(wire, 5, wire.length));

        assertThat(frames()).containsExactly("hello, kafka");
        assertThat(channel.isOpen()).isTrue();
    }

    @Test
    void severalFramesInOneReadAreEmittedInOrder() {
        decoder(CAP);
        read(concat(framed("one"), framed(""), framed("three"), framed("four")));

        assertThat(frames()).containsExactly("one", "", "three", "four");
    }

    @Test
    void theRestOfAReadWaitsForTheNextOne() {
        decoder(CAP);
        byte[] first = framed("first");
        byte[] second = framed("second");
        byte[] both = concat(first, second);

        read(slice(both, 0, first.length + 3));
        assertThat(frames()).containsExactly("first");
        read(slice(both, first.length + 3, both.length));
        assertThat(frames()).containsExactly("second");
    }

    @Test
    void aFrameOfExactlyTheCapIsAccepted() {
        decoder(CAP);
        String atCap = "x".repeat(CAP);
        read(framed(atCap));

        assertThat(frames()).containsExactly(atCap);
        assertThat(channel.isOpen()).isTrue();
    }

    @Test
    void aSizeOneAboveTheCapClosesTheConnectionAndNothingMoreIsEmitted() {
        decoder(CAP);
        // The oversized prefix comes first; a valid frame behind it in the same read must not get through.
        read(concat(prefix(CAP + 1), "y".repeat(CAP + 1).getBytes(StandardCharsets.US_ASCII), framed("after")));

        assertThat(channel.isOpen()).isFalse();
        assertThat(frames()).isEmpty();
    }

    @Test
    void aNegativeSizeClosesTheConnection() {
        decoder(CAP);
        read(concat(prefix(-1), framed("after")));

        assertThat(channel.isOpen()).isFalse();
        assertThat(frames()).isEmpty();
    }

    @Test
    void framesBeforeARejectedSizeAreStillEmitted() {
        decoder(CAP);
        read(concat(framed("ok"), prefix(Integer.MIN_VALUE)));

        assertThat(frames()).containsExactly("ok");
        assertThat(channel.isOpen()).isFalse();
    }

    @Test
    void aTruncatedFrameEmitsNothingEvenWhenThePeerCloses() {
        decoder(CAP);
        byte[] wire = framed("truncated");
        read(slice(wire, 0, wire.length - 1));

        assertThat(frames()).isEmpty();
        assertThat(channel.isOpen()).isTrue();
        assertThat(channel.finish()).as("inbound messages after the peer closed").isFalse();
    }

    @Test
    void aTlsClientHelloOnThePlaintextPortClosesTheConnection() {
        // kroxylicious #1650: a TLS record header (handshake, TLS 1.0 record version, length 0x0200)
        // reads as a 369 MB frame size. It must close the connection, not wait for (or allocate) the frame.
        decoder(WireSettings.DEFAULT_MAX_FRAME_BYTES);
        byte[] clientHello = new byte[517];
        byte[] header = {0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, (byte) 0xfc, 0x03, 0x03};
        System.arraycopy(header, 0, clientHello, 0, header.length);
        int allocationsBefore = allocator.allocations();

        read(clientHello);

        assertThat(channel.isOpen()).isFalse();
        assertThat(frames()).isEmpty();
        assertThat(allocator.allocations()).as("buffers allocated for the bogus frame").isEqualTo(allocationsBefore);
    }

    @Test
    void emittedFramesAreViewsOfTheInputThatKeepItAliveUntilReleased() {
        decoder(CAP);
        byte[] bytes = framed("zero-copy");
        ByteBuf input = Unpooled.directBuffer(bytes.length).writeBytes(bytes);
        written.add(input);
        channel.writeInbound(input);

        ByteBuf frame = channel.readInbound();
        assertThat(input.refCnt()).as("input retained by the emitted frame").isPositive();
        assertThat(frame.toString(StandardCharsets.US_ASCII)).isEqualTo("zero-copy");
        frame.release();
        assertThat(input.refCnt()).isZero();
    }

    private void decoder(int cap) {
        channel = new EmbeddedChannel();
        channel.config().setAllocator(allocator);
        channel.pipeline().addLast(new KafkaFrameDecoder(cap));
    }

    private void read(byte[] bytes) {
        ByteBuf buf = Unpooled.directBuffer(bytes.length).writeBytes(bytes); // tracked by Netty's leak detector
        written.add(buf);
        if (channel.isOpen()) {
            channel.writeInbound(buf);
        } else {
            buf.release();
        }
    }

    /** Reads and releases every emitted frame, as text. */
    private List<String> frames() {
        List<String> out = new ArrayList<>();
        ByteBuf frame;
        while ((frame = channel.readInbound()) != null) {
            out.add(frame.toString(StandardCharsets.US_ASCII));
            frame.release();
        }
        return out;
    }

    private static byte[] framed(String body) {
        return concat(prefix(body.length()), body.getBytes(StandardCharsets.US_ASCII));
    }

    private static byte[] prefix(int size) {
        return new byte[] {(byte) (size >>> 24), (byte) (size >>> 16), (byte) (size >>> 8), (byte) size};
    }

    private static byte[] slice(byte[] bytes, int from, int to) {
        return Arrays.copyOfRange(bytes, from, to);
    }

    private static byte[] concat(byte[]... parts) {
        ByteBuf all = Unpooled.buffer();
        for (byte[] part : parts) {
            all.writeBytes(part);
        }
        byte[] out = ByteBufUtil.getBytes(all);
        all.release();
        return out;
    }
}
