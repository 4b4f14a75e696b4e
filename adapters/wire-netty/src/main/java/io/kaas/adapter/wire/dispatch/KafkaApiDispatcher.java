package io.kaas.adapter.wire.dispatch;

import io.kaas.adapter.wire.codec.KafkaFrameDecoder;
import io.kaas.adapter.wire.codec.KafkaRequest;
import io.kaas.adapter.wire.codec.MalformedRequestException;
import io.kaas.adapter.wire.codec.RequestParser;
import io.kaas.adapter.wire.codec.ResponseEncoder;
import io.kaas.adapter.wire.codec.ResponseFrame;
import io.kaas.adapter.wire.tls.TlsPrincipalHandler;
import io.kaas.application.port.in.TraceSpan;
import io.kaas.application.port.in.Tracer;
import io.kaas.application.port.in.TrafficMetrics;
import io.kaas.domain.error.KafkaException;
import io.kaas.domain.security.KafkaPrincipal;
import io.kaas.domain.security.SaslAuthenticationFailure;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.timeout.IdleStateEvent;
import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.kafka.common.errors.ApiException;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.ProduceRequest;
import org.apache.kafka.common.requests.RequestHeader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One per connection: parses each frame, hands the request to its handler and writes the responses
 * in request order, however the handlers' completions interleave (the protocol requires it; clients
 * pipeline). Reading pauses while too much is in flight or the socket is not writable.
 *
 * <p>Handlers run on the connection's event loop, except those the registry marks blocking (admin
 * operations that fsync files): they run on the blocking executor, and the connection's later
 * requests wait until they finish, so requests still take effect in the order they were sent.
 *
 * <p>A frame that is not a served request closes the connection, as Apache's broker does; so does
 * a failed {@code acks=0} produce, since no response can carry its error.
 *
 * <p>On a SASL listener a {@link SaslServerAuthenticator} decides every request until the
 * connection has authenticated (the pre-authentication gate); the principal it authenticates is
 * the {@link RequestContext#principal()} of every later request. A connection that does not
 * authenticate by SASL is the principal its TLS client certificate gave it, or ANONYMOUS.
 *
 * <p>Quotas (KIP-124, KIP-219): the time a request's handler ran on the broker's threads is charged to the
 * client's {@code request_percentage} quota, and a throttle from it or from a byte-rate quota (which the Produce and
 * Fetch handlers put in their responses) is answered at once in {@code throttle_time_ms}; then the connection is
 * not read until the throttle time has passed, so a client that ignores it is held back all the same.
 */
public final class KafkaApiDispatcher extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(KafkaApiDispatcher.class);

    private final ApiRegistry registry;
    private final RequestParser parser;
    private final ConnectionLimits limits;
    private final Executor blockingExecutor;
    /** Requests read while a blocking handler runs, dispatched when it is done; event-loop confined. */
    private final ArrayDeque<KafkaRequest> waiting = new ArrayDeque<>();
    private Slot blockingRunning;
    /** Requests awaiting their turn to be answered, oldest first; event-loop confined. */
    private final ArrayDeque<Slot> inFlight = new ArrayDeque<>();
    /** Requests whose handler has not completed yet, acks=0 produces included; they own their frames. */
    private final Set<Slot> uncompleted = new HashSet<>();
    private long inFlightBytes;
    private int unansweredNoResponse;
    private boolean closed;
    /** Null on a listener without authentication. */
    private final SaslServerAuthenticator sasl;
    /** The frame cap once authenticated (the decoder holds a lower one until then on a SASL listener). */
    private final int maxFrameBytes;
    /** Each API's request count, failures and latency. */
    private final TrafficMetrics metrics;
    /** Reading is paused until this task ends a quota throttle (KIP-219); event-loop confined. */
    private ScheduledFuture<?> throttleEnd;
    private long throttledUntilNanos;
    /** Decides which requests are traced and starts their spans. */
    private final Tracer tracer;

    /**
     * A connection on a listener without authentication: every request is ANONYMOUS.
     *
     * @param blockingExecutor runs the handlers the registry marks blocking, off the event loop
     */
    public KafkaApiDispatcher(ApiRegistry registry, ConnectionLimits limits, Executor blockingExecutor) {
        this(registry, limits, blockingExecutor, null, 0, TrafficMetrics.NONE, Tracer.NONE);
    }

    /**
     * A connection; on a SASL listener only what {@code sasl} admits is served until it completes.
     *
     * @param sasl          null on a listener without authentication (every request is then ANONYMOUS, or the
     *                      principal of the TLS client certificate)
     * @param maxFrameBytes the frame cap to give the connection's {@link KafkaFrameDecoder} once authenticated
     * @param metrics       where each request's API, latency and failure are counted
     * @param tracer        starts each sampled request's span, ended when its handler completes
     */
    public KafkaApiDispatcher(ApiRegistry registry, ConnectionLimits limits, Executor blockingExecutor,
                              SaslServerAuthenticator sasl, int maxFrameBytes, TrafficMetrics metrics, Tracer tracer) {
        this.registry = registry;
        this.parser = new RequestParser(registry::serves);
        this.limits = limits;
        this.blockingExecutor = blockingExecutor;
        this.sasl = sasl;
        this.maxFrameBytes = maxFrameBytes;
        this.metrics = metrics;
        this.tracer = tracer;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf frame = (ByteBuf) msg;
        if (closed) {
            frame.release();
            return;
        }
        if (sasl != null && sasl.expectsBareToken()) {
            bareToken(ctx, frame);
            return;
        }
        KafkaRequest request;
        try {
            request = parser.parse(frame);
        } catch (MalformedRequestException e) {
            LOG.warn("closing connection from {}: {}", ctx.channel().remoteAddress(), e.getMessage());
            close(ctx);
            return;
        }
        if (blockingRunning != null) {
            waiting.addLast(request);
            inFlightBytes += request.frame().readableBytes();
            updateAutoRead(ctx);
            return;
        }
        dispatch(ctx, request);
    }

    /**
     * Who sent a request: the SASL principal once the gate authenticated the connection, else the one its
     * TLS client certificate gave it (ANONYMOUS on plaintext or without a certificate).
     */
    private KafkaPrincipal principal(ChannelHandlerContext ctx) {
        return sasl != null && sasl.hasAuthenticated() ? sasl.principal() : TlsPrincipalHandler.principal(ctx.channel());
    }

    /** Dispatches what arrived while a blocking handler ran, until another blocking one starts. */
    private void dispatchWaiting(ChannelHandlerContext ctx) {
        while (blockingRunning == null && !waiting.isEmpty() && !closed) {
            KafkaRequest request = waiting.pollFirst();
            inFlightBytes -= request.frame().readableBytes();
            dispatch(ctx, request);
        }
    }

    private void dispatch(ChannelHandlerContext ctx, KafkaRequest request) {
        if (sasl != null && sasl.isComplete()) {
            // KIP-368, as Apache's Processor: a SaslHandshake may start a re-authentication, even past the session's
            // end; any other request past it closes the connection.
            boolean reauthenticates = request.header().apiKey() == ApiKeys.SASL_HANDSHAKE && sasl.beginReauthentication();
            if (!reauthenticates && sasl.sessionExpired()) {
                LOG.info("closing connection from {}: its SASL session for {} expired and it did not re-authenticate",
                        ctx.channel().remoteAddress(), sasl.principal());
                request.frame().release();
                close(ctx);
                return;
            }
        }
        SaslServerAuthenticator.Admission admission = sasl == null || sasl.isComplete() ? null
                : sasl.admit(request, String.valueOf(ctx.channel().remoteAddress()));
        if (admission != null && admission.closesUnanswered()) {
            request.frame().release();
            close(ctx);
            return;
        }
        AbstractRequest body = request.body();
        boolean answered = !(body instanceof ProduceRequest produce && produce.acks() == 0);
        RequestHeader header = request.header();
        TraceSpan span = tracer.startRequest(header.apiKey().name, header.apiVersion(), header.clientId(),
                request.frame().readableBytes());
        RequestContext context = new RequestContext(header, ctx.channel().remoteAddress(), ctx.executor(),
                principal(ctx), request.frame().readableBytes(), span);
        Slot slot = new Slot(request, context, answered, request.frame().readableBytes(), metrics.nanoTime(), span);
        slot.closeAfterAnswer = admission != null && admission.thenClose();
        uncompleted.add(slot);
        if (answered) {
            inFlight.addLast(slot);
        } else {
            unansweredNoResponse++;
        }
        inFlightBytes += slot.frameBytes;
        updateAutoRead(ctx);

        CompletionStage<? extends AbstractResponse> stage;
        if (admission != null && admission.answer().isPresent()) {
            stage = CompletableFuture.completedFuture(admission.answer().get());
            if (sasl.isComplete()) {
                ctx.pipeline().get(KafkaFrameDecoder.class).limitFrames(maxFrameBytes);
            }
        } else if (request.unsupportedVersion()) {
            stage = CompletableFuture.completedFuture(body.getErrorResponse(0, Errors.UNSUPPORTED_VERSION.exception()));
        } else if (registry.isBlocking(body.apiKey())) {
            blockingRunning = slot;
            stage = CompletableFuture.supplyAsync(() -> timed(slot, () -> handle(context, body)),
                    blockingExecutor).thenCompose(Function.identity());
        } else {
            try {
                stage = timed(slot, () -> handle(context, body));
            } catch (RuntimeException e) {
                stage = CompletableFuture.failedFuture(e);
            }
        }
        stage.whenComplete((response, error) -> {
            if (ctx.executor().inEventLoop()) {
                complete(ctx, slot, response, error);
                return;
            }
            try {
                ctx.executor().execute(() -> complete(ctx, slot, response, error));
            } catch (RejectedExecutionException e) {
                // The server stopped and its loop with it: nobody can be answered; a frame the closed connection kept
                // for its handler (a produce's) is given back here, as nothing touches this connection any more.
                if (uncompleted.remove(slot)) {
                    slot.request.frame().release();
                }
            }
        });
    }

    /** Runs a handler, keeping the time it ran on this thread for the request quota. */
    private <T> T timed(Slot slot, Supplier<T> handler) {
        long started = metrics.nanoTime();
        try {
            return handler.get();
        } finally {
            slot.handlerNanos = metrics.nanoTime() - started;
        }
    }

    /**
     * Charges the request quota (not for acks=0 produces, as Apache) and answers the throttle the response is to
     * carry: the larger of the request quota's and the one the handler put in (a byte-rate quota's).
     */
    private int throttleMs(Slot slot, AbstractResponse response) {
        RequestContext context = slot.context;
        int requestThrottle = slot.answered
                ? registry.quotas().request(context.user(), context.clientId(), slot.handlerNanos) : 0;
        if (response == null) {
            return requestThrottle;
        }
        if (requestThrottle > response.throttleTimeMs()) {
            response.maybeSetThrottleTimeMs(requestThrottle);
        }
        return Math.max(requestThrottle, response.throttleTimeMs());
    }

    /** KIP-219: the connection is not read for {@code throttleMs}, however its client treats the throttle. */
    private void throttle(ChannelHandlerContext ctx, int throttleMs) {
        if (throttleMs <= 0 || closed) {
            return; // without reading the clock: the usual case, once per request
        }
        long until = metrics.nanoTime() + TimeUnit.MILLISECONDS.toNanos(throttleMs);
        if (throttleEnd != null && until - throttledUntilNanos <= 0) {
            return;
        }
        if (throttleEnd != null) {
            throttleEnd.cancel(false);
        }
        throttledUntilNanos = until;
        throttleEnd = ctx.executor().schedule(() -> {
            throttleEnd = null;
            updateAutoRead(ctx);
        }, throttleMs, TimeUnit.MILLISECONDS);
        updateAutoRead(ctx);
    }

    /** The handler, with the request's span current meanwhile (log lines it writes carry the trace id). */
    private CompletionStage<? extends AbstractResponse> handle(RequestContext context, AbstractRequest body) {
        try (TraceSpan.Scope ignored = context.span().activate()) {
            return registry.handle(context, body);
        }
    }

    private void complete(ChannelHandlerContext ctx, Slot slot, AbstractResponse response, Throwable error) {
        if (error != null) {
            slot.span.fail(error);
        }
        slot.span.end();
        if (!uncompleted.remove(slot)) {
            return; // the connection closed first and released the frame; nobody is waiting for the answer
        }
        KafkaRequest request = slot.request;
        ApiKeys api = request.header().apiKey();
        metrics.requestCompleted(api.id, api.name, metrics.nanoTime() - slot.dispatchedNanos, error != null);
        throttle(ctx, throttleMs(slot, error == null ? response : null));
        request.frame().release();
        inFlightBytes -= slot.frameBytes;
        if (blockingRunning == slot) {
            blockingRunning = null;
            dispatchWaiting(ctx);
        }
        if (!slot.answered) {
            unansweredNoResponse--;
            // No response can carry an acks=0 produce's error (its error response is null), so any failure closes
            // the connection, as Apache's broker does.
            boolean failed = error != null || response == null
                    || response.errorCounts().keySet().stream().anyMatch(e -> e != Errors.NONE);
            if (!closed && failed) {
                LOG.info("closing connection from {}: acks=0 produce failed with {}", ctx.channel().remoteAddress(),
                        error != null ? error.toString() : response == null ? "no result" : response.errorCounts());
                close(ctx);
            }
            updateAutoRead(ctx);
            return;
        }
        if (closed) {
            return;
        }
        slot.encoded = encode(ctx, request, response, error);
        if (slot.encoded == null) {
            close(ctx);
            return;
        }
        boolean wrote = false;
        while (!inFlight.isEmpty() && inFlight.peekFirst().encoded != null) {
            Slot next = inFlight.pollFirst();
            next.encoded.writeTo(ctx);
            wrote = true;
            if (next.closeAfterAnswer) {
                closeAfterWrites(ctx);
                return;
            }
        }
        if (wrote) {
            ctx.flush();
        }
        updateAutoRead(ctx);
    }

    /** A refused SASL client: its answer goes out, then the connection closes, as in Apache. */
    private void closeAfterWrites(ChannelHandlerContext ctx) {
        closed = true;
        ctx.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
    }

    /**
     * A bare SASL token after a v0 SaslHandshake (pre-KIP-152 framing): answered with a bare
     * size-prefixed token; a failed step closes the connection without an answer, as in Apache.
     */
    private void bareToken(ChannelHandlerContext ctx, ByteBuf frame) {
        byte[] answer;
        try {
            answer = sasl.evaluateBareToken(frame.nioBuffer(), String.valueOf(ctx.channel().remoteAddress()));
        } catch (SaslAuthenticationFailure e) {
            close(ctx);
            return;
        } finally {
            frame.release();
        }
        if (sasl.isComplete()) {
            ctx.pipeline().get(KafkaFrameDecoder.class).limitFrames(maxFrameBytes);
        }
        ctx.writeAndFlush(ctx.alloc().buffer(Integer.BYTES + answer.length).writeInt(answer.length).writeBytes(answer));
    }

    /**
     * The response frame: the body at the parsed request's version (0 for the ApiVersions fallback),
     * the header at the version Apache derives from the requested one. A response the version cannot
     * carry (a handler bug) is replaced by the API's UNKNOWN_SERVER_ERROR response, so the client gets
     * an answer and later responses are not held back; null if even that cannot be encoded.
     */
    private ResponseFrame encode(ChannelHandlerContext ctx, KafkaRequest request, AbstractResponse response,
                                 Throwable error) {
        RequestHeader header = request.header();
        short headerVersion = header.apiKey().responseHeaderVersion(header.apiVersion());
        try {
            AbstractResponse answer = error == null ? response : errorResponse(request, error);
            return ResponseEncoder.encode(ctx.alloc(), header.correlationId(), headerVersion, answer.data(),
                    request.body().version());
        } catch (RuntimeException e) {
            LOG.error("{} v{} response to {} cannot be encoded; answering UNKNOWN_SERVER_ERROR", header.apiKey(),
                    header.apiVersion(), header.clientId(), e);
        }
        try {
            AbstractResponse fallback = request.body().getErrorResponse(0, Errors.UNKNOWN_SERVER_ERROR.exception());
            return ResponseEncoder.encode(ctx.alloc(), header.correlationId(), headerVersion, fallback.data(),
                    request.body().version());
        } catch (RuntimeException e) {
            LOG.error("closing connection from {}: the {} v{} error response cannot be encoded either",
                    ctx.channel().remoteAddress(), header.apiKey(), header.apiVersion(), e);
            return null;
        }
    }

    private AbstractResponse errorResponse(KafkaRequest request, Throwable error) {
        Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        ApiException apiError;
        if (cause instanceof KafkaException kafka) {
            apiError = Errors.forCode(kafka.error().code()).exception(kafka.getMessage());
        } else if (cause instanceof ApiException api) {
            apiError = api;
        } else {
            LOG.error("{} v{} from {} failed", request.header().apiKey(), request.header().apiVersion(),
                    request.header().clientId(), cause);
            apiError = Errors.UNKNOWN_SERVER_ERROR.exception();
        }
        return request.body().getErrorResponse(0, apiError);
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        updateAutoRead(ctx);
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        closed = true;
        if (throttleEnd != null) {
            throttleEnd.cancel(false);
            throttleEnd = null;
        }
        // A request still with its handler (a fetch parked until its max wait, say) may never complete: the
        // broker may be shutting down, its timers with it. Give its frame back now - unless its handler may still
        // read it: a blocking handler running on its executor, or a produce whose batches (views of the frame)
        // wait on a partition's append queue or a transaction verification. Those give their frames back when
        // they complete; a produce always completes once its appends have run.
        uncompleted.removeIf(slot -> {
            if (slot == blockingRunning || slot.request.body() instanceof ProduceRequest) {
                return false;
            }
            slot.request.frame().release();
            return true;
        });
        waiting.forEach(request -> request.frame().release());
        waiting.clear();
        for (Slot slot : inFlight) {
            if (slot.encoded != null) {
                slot.encoded.release();
                slot.encoded = null;
            }
        }
        ctx.fireChannelInactive();
    }

    /**
     * {@code connections.max.idle.ms} ran out with nothing read or written: the connection is closed,
     * unless a request of its is still being handled (a long poll or a parked join is not idleness).
     */
    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
        if (event instanceof IdleStateEvent) {
            if (uncompleted.isEmpty() && inFlight.isEmpty() && waiting.isEmpty()) {
                LOG.debug("closing idle connection from {}", ctx.channel().remoteAddress());
                close(ctx);
            }
            return;
        }
        ctx.fireUserEventTriggered(event);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        LOG.debug("connection from {} failed: {}", ctx.channel().remoteAddress(), cause.toString());
        close(ctx);
    }

    private void close(ChannelHandlerContext ctx) {
        closed = true;
        ctx.close();
    }

    private void updateAutoRead(ChannelHandlerContext ctx) {
        boolean read = !closed && throttleEnd == null && ctx.channel().isWritable()
                && inFlight.size() + unansweredNoResponse + waiting.size() < limits.maxInFlightRequests()
                && inFlightBytes < limits.maxInFlightBytes();
        if (ctx.channel().config().isAutoRead() != read) {
            ctx.channel().config().setAutoRead(read);
        }
    }

    /** One request on its way to being answered. */
    private static final class Slot {
        final KafkaRequest request;
        final RequestContext context;
        final boolean answered;
        final int frameBytes;
        /** When the request was handed to its handler, for its latency. */
        final long dispatchedNanos;
        ResponseFrame encoded;
        /** The request's trace span, ended when its handler completes. */
        final TraceSpan span;
        /** The SASL gate refused the connection: close once this answer is written. */
        boolean closeAfterAnswer;
        /** How long its handler ran on the thread that called it (the event loop or a blocking one). */
        volatile long handlerNanos;

        Slot(KafkaRequest request, RequestContext context, boolean answered, int frameBytes, long dispatchedNanos,
             TraceSpan span) {
            this.request = request;
            this.context = context;
            this.answered = answered;
            this.frameBytes = frameBytes;
            this.dispatchedNanos = dispatchedNanos;
            this.span = span;
        }
    }
}
