package io.kaas.adapter.wire.codec;

import io.netty.channel.Channel;
import io.netty.channel.ChannelException;
import io.netty.channel.ChannelOption;
import io.netty.channel.unix.IntegerUnixChannelOption;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A connection's {@code SO_RCVLOWAT}, kept at the bytes its current frame still lacks less a margin, so the kernel
 * wakes the event loop once most of a large frame has arrived rather than at every TLS record: a Java producer
 * writes one record (at most 16 KiB) per write, and each woke the loop (docs/perf/2026-12-02-security.md, "Where a
 * TLS Produce spends"). The margin is what the TLS handler upstream may hold undecrypted, a partial record, so the
 * threshold never exceeds the bytes still to come, and a frame always completes. Only a native transport applies the
 * option (a NIO channel ignores it); 1, the kernel's default, between frames and for frames too small to gain.
 * One per connection, confined to its event loop.
 */
public final class ReceiveLowWater {
    private static final Logger LOG = LoggerFactory.getLogger(ReceiveLowWater.class);
    /** Linux's SOL_SOCKET and SO_RCVLOWAT. */
    private static final ChannelOption<Integer> SO_RCVLOWAT = new IntegerUnixChannelOption("SO_RCVLOWAT", 1, 18);
    /** One TLS record's ciphertext at most: 2^14 bytes of plaintext, 2,048 of expansion (TLS 1.2's bound), its header. */
    private static final int TLS_RECORD_BYTES = 16_384 + 2_048 + 5;
    /** Below this many bytes to wait for, the two setsockopt calls cost more than the wake-ups they save. */
    private static final int WORTHWHILE_BYTES = 32 * 1024;

    private final int margin;
    private int current = 1;

    private ReceiveLowWater(int margin) {
        this.margin = margin;
    }

    /** For a connection behind a TLS handler. */
    public static ReceiveLowWater behindTls() {
        return new ReceiveLowWater(TLS_RECORD_BYTES);
    }

    /** Never changes the option: every byte wakes the loop. */
    public static ReceiveLowWater off() {
        return new ReceiveLowWater(Integer.MAX_VALUE);
    }

    /** Called after each decode: {@code missingBytes} of the pending frame have not arrived yet (0: none pending). */
    void expect(Channel channel, int missingBytes) {
        int wanted = missingBytes - margin >= WORTHWHILE_BYTES ? missingBytes - margin : 1;
        if (wanted != current && channel.isActive()) {
            try {
                if (channel.config().setOption(SO_RCVLOWAT, wanted)) {
                    current = wanted;
                }
            } catch (ChannelException e) {
                // closed under us: nothing left to wait for
                LOG.debug("SO_RCVLOWAT {} not set on {}: {}", wanted, channel, e.toString());
            }
        }
    }
}
