package io.kaas.adapter.wire.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.DefaultFileRegion;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.ReferenceCountUtil;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Regions read on the I/O executor, in their place among the connection's other writes. */
class FileRegionReaderTest {
    @TempDir
    Path dir;

    /** The I/O executor, run by hand: what it has not run has not been read. */
    private final Queue<Runnable> io = new ArrayDeque<>();
    private final EmbeddedChannel channel = new EmbeddedChannel(new FileRegionReader(io::add));

    @Test
    void aRegionIsReadOffTheLoopAndWrittenInItsPlace() throws IOException {
        Path segment = Files.writeString(dir.resolve("00000000-00000000000000000000.log"), "0123456789batches");

        channel.write(text("header|"));
        ChannelFuture region = channel.write(new DefaultFileRegion(segment.toFile(), 10, 7));
        channel.write(text("|trailer"));
        channel.flush();
        channel.write(text("|next response"));
        channel.flush();

        // the flushes came after the region, so they wait for its read with everything else
        assertThat(outbound()).isEmpty();
        assertThat(io).hasSize(1);

        io.poll().run();
        channel.runPendingTasks();
        assertThat(outbound()).containsExactly("header|", "batches", "|trailer", "|next response");
        assertThat(region.isSuccess()).isTrue();
        assertThat(channel.finish()).isFalse();
    }

    @Test
    void theRegionsOfOneFlushAreReadInOneTaskAndWrittenInOrder() throws IOException {
        Path a = Files.writeString(dir.resolve("a.log"), "first");
        Path b = Files.writeString(dir.resolve("b.log"), "second");

        channel.write(text("["));
        channel.write(new DefaultFileRegion(a.toFile(), 0, 5));
        channel.write(text("|"));
        channel.write(new DefaultFileRegion(b.toFile(), 0, 6));
        assertThat(io).isEmpty(); // nothing asked for the bytes yet
        channel.writeAndFlush(text("]"));

        assertThat(io).hasSize(1); // one hand-off for the whole response, not one per region
        io.poll().run();
        channel.runPendingTasks();
        assertThat(io).isEmpty();
        assertThat(outbound()).containsExactly("[", "first", "|", "second", "]");
    }

    @Test
    void aLargeResponseGoesOutPieceByPieceAsItIsRead() throws IOException {
        Path a = Files.writeString(dir.resolve("a.log"), "first");
        Path b = Files.writeString(dir.resolve("b.log"), "second");
        List<String> events = new ArrayList<>();
        // takes the place of the socket: the embedded channel's own runs its pending tasks inside a write
        EmbeddedChannel recorded = new EmbeddedChannel(new ChannelOutboundHandlerAdapter() {
            @Override
            public void write(ChannelHandlerContext ctx, Object message, ChannelPromise promise) {
                events.add(((ByteBuf) message).toString(StandardCharsets.UTF_8));
                ReferenceCountUtil.release(message);
                promise.setSuccess();
            }

            @Override
            public void flush(ChannelHandlerContext ctx) {
                events.add("flush");
            }
        }, new FileRegionReader(io::add, 5));

        recorded.write(new DefaultFileRegion(a.toFile(), 0, 5));
        recorded.write(new DefaultFileRegion(b.toFile(), 0, 6));
        recorded.writeAndFlush(text("!"));
        assertThat(io).hasSize(1); // still one task for the response
        io.poll().run();
        recorded.runPendingTasks();

        // the first region (as many bytes as a hand-back holds) is sent before the rest is written
        assertThat(events).containsExactly("first", "flush", "second", "!", "flush");
        recorded.finishAndReleaseAll();
    }

    @Test
    void aRegionWrittenDuringAReadIsReadAtTheFlushAfterIt() throws IOException {
        Path a = Files.writeString(dir.resolve("a.log"), "first");
        Path b = Files.writeString(dir.resolve("b.log"), "second");
        channel.write(new DefaultFileRegion(a.toFile(), 0, 5));
        channel.flush();
        channel.write(new DefaultFileRegion(b.toFile(), 0, 6));
        channel.writeAndFlush(text("!"));
        assertThat(io).hasSize(1);

        io.poll().run();
        channel.runPendingTasks();
        assertThat(outbound()).containsExactly("first");
        assertThat(io).hasSize(1); // the second region's read starts once the first is written
        io.poll().run();
        channel.runPendingTasks();
        assertThat(outbound()).containsExactly("second", "!");
    }

    @Test
    void aRegionTheFileCannotFillFailsItsWriteAndTheConnection() throws IOException {
        Path shortFile = Files.writeString(dir.resolve("short.log"), "abc");

        ChannelFuture region = channel.write(new DefaultFileRegion(shortFile.toFile(), 0, 10));
        ChannelFuture after = channel.writeAndFlush(text("after"));
        io.poll().run();
        channel.runPendingTasks();

        assertThat(region.cause()).isInstanceOf(IOException.class);
        assertThat(after.isSuccess()).isTrue();
        assertThat(outbound()).containsExactly("after");
        // the failure travels the pipeline, where the dispatcher closes the connection
        assertThatThrownBy(channel::checkException).isInstanceOf(IOException.class);
        channel.close();
    }

    @Test
    void writesQueuedBehindARegionAreReleasedWhenTheConnectionClosesDuringItsRead() throws IOException {
        Path segment = Files.writeString(dir.resolve("c.log"), "data");
        DefaultFileRegion region = new DefaultFileRegion(segment.toFile(), 0, 4);
        channel.write(region);
        ByteBuf queued = text("queued");
        ChannelFuture write = channel.write(queued);
        channel.flush();

        channel.close();
        assertThat(write.isSuccess()).isFalse();
        assertThat(queued.refCnt()).isZero();
        assertThat(region.refCnt()).isOne(); // the read still copies it
        io.poll().run(); // the read finishing late releases the region and its copy
        channel.runPendingTasks();
        assertThat(region.refCnt()).isZero();
        assertThat(outbound()).isEmpty();
    }

    @Test
    void aRegionNeverFlushedIsReleasedWhenTheConnectionCloses() throws IOException {
        Path segment = Files.writeString(dir.resolve("d.log"), "data");
        DefaultFileRegion region = new DefaultFileRegion(segment.toFile(), 0, 4);
        ChannelFuture write = channel.write(region);

        channel.close();
        assertThat(io).isEmpty();
        assertThat(write.isSuccess()).isFalse();
        assertThat(region.refCnt()).isZero();
    }

    private List<String> outbound() {
        List<String> written = new ArrayList<>();
        ByteBuf buffer;
        while ((buffer = channel.readOutbound()) != null) {
            written.add(buffer.toString(StandardCharsets.UTF_8));
            buffer.release();
        }
        return written;
    }

    private static ByteBuf text(String text) {
        return Unpooled.copiedBuffer(text, StandardCharsets.UTF_8);
    }
}
