package io.kaas.adapter.wire.dispatch;

import io.kaas.application.port.in.TraceSpan;
import io.kaas.domain.security.KafkaPrincipal;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import org.apache.kafka.common.requests.RequestHeader;

/**
 * Who sent a request and how: what handlers may know beyond the request body (the principal the
 * connection authenticated as, {@link KafkaPrincipal#ANONYMOUS} without authentication, is what ACLs
 * and quotas key on); and the connection's event loop, where a handler's continuations resume (see
 * {@link #resume}); and the request's trace span, {@link TraceSpan#NONE} when it is not sampled.
 * {@code requestBytes} is the request's size on the wire, header included: what a produce quota charges, as
 * Apache's {@code request.sizeInBytes}.
 */
public record RequestContext(RequestHeader header, SocketAddress clientAddress, Executor loop,
                             KafkaPrincipal principal, int requestBytes, TraceSpan span) {
    /** An untraced request whose size nobody charges (tests of handlers). */
    public RequestContext(RequestHeader header, SocketAddress clientAddress, Executor loop, KafkaPrincipal principal) {
        this(header, clientAddress, loop, principal, 0, TraceSpan.NONE);
    }

    /**
     * The use case's answer, with whatever a handler chains on it run on the connection's event loop:
     * an answer completed by an fsync, a timer or another broker would otherwise run the handler's
     * response mapping on that thread (the threading rule: I/O threads only do I/O and complete
     * futures). An answer already complete costs nothing: its continuations run here, on the loop.
     */
    public <T> CompletionStage<T> resume(CompletionStage<T> answer) {
        CompletableFuture<T> future = answer.toCompletableFuture();
        return future.isDone() ? future : future.whenCompleteAsync((result, error) -> { }, loop);
    }

    public short apiVersion() {
        return header.apiVersion();
    }

    /** The header's client id; "" for none. */
    public String clientId() {
        String clientId = header.clientId();
        return clientId == null ? "" : clientId;
    }

    /** The principal's name: the user a quota is looked up for. */
    public String user() {
        return principal.name();
    }

    /** The client's IP address as text ({@code 127.0.0.1}): what an ACL's host names, as in Apache. */
    public String clientIp() {
        if (clientAddress instanceof InetSocketAddress inet && inet.getAddress() != null) {
            return inet.getAddress().getHostAddress();
        }
        return String.valueOf(clientAddress);
    }

    /** The client's address as Apache's DescribeGroups shows it ({@code InetAddress.toString()}: "/127.0.0.1"). */
    public String clientHost() {
        if (clientAddress instanceof InetSocketAddress inet && inet.getAddress() != null) {
            return inet.getAddress().toString();
        }
        return String.valueOf(clientAddress);
    }
}
