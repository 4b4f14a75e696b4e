package io.kaas.adapter.wire.support;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.adapter.wire.WireSettings;
import io.kaas.adapter.wire.codec.KafkaFrameDecoder;
import io.kaas.adapter.wire.dispatch.ApiRegistry;
import io.kaas.adapter.wire.dispatch.ConnectionLimits;
import io.kaas.adapter.wire.dispatch.KafkaApiDispatcher;
import io.kaas.adapter.wire.dispatch.SaslServerAuthenticator;
import io.kaas.application.port.in.Tracer;
import io.kaas.application.port.in.TrafficMetrics;
import io.netty.buffer.ByteBuf;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.ReferenceCountUtil;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.AbstractResponse;

/**
 * One client connection without a socket: an {@link EmbeddedChannel} with the listener's pipeline
 * (frame decoder, dispatcher), an allocator that records what the pipeline allocates, and
 * helpers that speak the protocol with kafka-clients' classes. {@link #close()} asserts that every
 * buffer the test wrote and every buffer the pipeline allocated was released.
 */
public final class WireChannel implements AutoCloseable {
    private final RecordingAllocator allocator = new RecordingAllocator();
    private final EmbeddedChannel channel = new EmbeddedChannel();
    private final List<ByteBuf> written = new ArrayList<>();
    private int nextCorrelationId = 1;

    public WireChannel(ApiRegistry registry) {
        this(registry, ConnectionLimits.DEFAULT);
    }

    public WireChannel(ApiRegistry registry, ConnectionLimits limits) {
        this(registry, limits, Runnable::run);
    }

    /** @param blockingExecutor where handlers of blocking APIs run (inline unless a test wants to hold them) */
    public WireChannel(ApiRegistry registry, ConnectionLimits limits, Executor blockingExecutor) {
        channel.config().setAllocator(allocator);
        channel.pipeline().addLast("frames", new KafkaFrameDecoder(WireSettings.DEFAULT_MAX_FRAME_BYTES));
        channel.pipeline().addLast("apis", new KafkaApiDispatcher(registry, limits, blockingExecutor));
    }

    /** A connection on a SASL listener: the gate of {@code authenticator} stands before {@code registry}. */
    public WireChannel(ApiRegistry registry, SaslServerAuthenticator authenticator) {
        channel.config().setAllocator(allocator);
        channel.pipeline().addLast("frames",
                new KafkaFrameDecoder(SaslServerAuthenticator.MAX_RECEIVE_BYTES_BEFORE_AUTHENTICATION));
        channel.pipeline().addLast("apis", new KafkaApiDispatcher(registry, ConnectionLimits.DEFAULT, Runnable::run,
                authenticator, WireSettings.DEFAULT_MAX_FRAME_BYTES, TrafficMetrics.NONE, Tracer.NONE));
    }

    /** Closes the channel as a client hanging up would, without the leak checks of {@link #close()}. */
    public void disconnect() {
        channel.close();
    }

    /** Sends a request serialized by kafka-clients; returns its correlation id. */
    public int send(AbstractRequest request) {
        int correlationId = nextCorrelationId++;
        write(Frames.frame(request, correlationId));
        return correlationId;
    }

    /** Writes raw bytes as one read from the socket; the buffer is checked for release on close. */
    public void write(ByteBuf bytes) {
        written.add(bytes);
        channel.writeInbound(bytes);
        channel.runPendingTasks();
    }

    /** Sends a request and reads its response, which must be the only one written. */
    public <R extends AbstractResponse> R roundTrip(AbstractRequest request) {
        int correlationId = send(request);
        R response = receive(request, correlationId);
        assertThat(outboundCount()).as("responses left after %s", request.apiKey()).isZero();
        return response;
    }

    /** Reads the next response, which must answer {@code request} sent with {@code correlationId}. */
    public <R extends AbstractResponse> R receive(AbstractRequest request, int correlationId) {
        Responses.Received<R> received = Responses.parse(nextResponse(), request.apiKey(), request.version());
        assertThat(received.correlationId()).as("correlation id").isEqualTo(correlationId);
        return received.body();
    }

    /** The next response frame as written; the caller releases it. */
    public ByteBuf nextResponse() {
        channel.runPendingTasks();
        Object next = channel.readOutbound();
        assertThat(next).as("a response frame").isInstanceOf(ByteBuf.class);
        return (ByteBuf) next;
    }

    /** Response frames written and not read yet. */
    public int outboundCount() {
        channel.runPendingTasks();
        return channel.outboundMessages().size();
    }

    public boolean isOpen() {
        return channel.isOpen();
    }

    public boolean isAutoRead() {
        return channel.config().isAutoRead();
    }

    public EmbeddedChannel channel() {
        return channel;
    }

    public RecordingAllocator allocator() {
        return allocator;
    }

    /** Every buffer written has been released by the pipeline, and so has everything it allocated. */
    public void assertNoLeaks() {
        assertThat(written.stream().filter(b -> b.refCnt() != 0).toList())
                .as("request buffers the pipeline did not release").isEmpty();
        allocator.assertAllReleased();
    }

    /** Closes the channel, drops unread responses and asserts that nothing leaked. */
    @Override
    public void close() {
        Object unread;
        while ((unread = channel.readOutbound()) != null) {
            ReferenceCountUtil.release(unread);
        }
        channel.finishAndReleaseAll();
        assertNoLeaks();
    }
}
