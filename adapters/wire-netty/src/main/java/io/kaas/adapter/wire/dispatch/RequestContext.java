package io.kaas.adapter.wire.dispatch;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import org.apache.kafka.common.requests.RequestHeader;

/** Who sent a request and how: what handlers may know beyond the request body. */
public record RequestContext(RequestHeader header, SocketAddress clientAddress) {
    public short apiVersion() {
        return header.apiVersion();
    }

    public String clientId() {
        return header.clientId();
    }

    /** The client's address as Apache's DescribeGroups shows it ({@code InetAddress.toString()}: "/127.0.0.1"). */
    public String clientHost() {
        if (clientAddress instanceof InetSocketAddress inet && inet.getAddress() != null) {
            return inet.getAddress().toString();
        }
        return String.valueOf(clientAddress);
    }
}
