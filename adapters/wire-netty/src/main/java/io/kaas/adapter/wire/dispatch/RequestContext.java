package io.kaas.adapter.wire.dispatch;

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
}
