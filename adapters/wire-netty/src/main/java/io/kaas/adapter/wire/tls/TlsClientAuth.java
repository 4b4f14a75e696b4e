package io.kaas.adapter.wire.tls;

import io.netty.handler.ssl.ClientAuth;
import java.util.Locale;

/** Apache's {@code ssl.client.auth}: whether a TLS listener asks its clients for a certificate. */
public enum TlsClientAuth {
    /** No client certificate asked for; the connection's principal is ANONYMOUS. */
    NONE(ClientAuth.NONE),
    /** Asked for, not required: a client without one connects as ANONYMOUS, one with one as its mapped name. */
    REQUESTED(ClientAuth.OPTIONAL),
    /** Required: the handshake fails without a certificate the CA bundle vouches for (mTLS). */
    REQUIRED(ClientAuth.REQUIRE);

    private final ClientAuth netty;

    TlsClientAuth(ClientAuth netty) {
        this.netty = netty;
    }

    ClientAuth netty() {
        return netty;
    }

    /** Apache's spelling: {@code none}, {@code requested} or {@code required}, in any case. */
    public static TlsClientAuth parse(String text) {
        for (TlsClientAuth mode : values()) {
            if (mode.name().equalsIgnoreCase(text.strip())) {
                return mode;
            }
        }
        throw new IllegalArgumentException("ssl.client.auth is none, requested or required, got '" + text + "'");
    }

    /** The value as Apache's config spells it. */
    public String configValue() {
        return name().toLowerCase(Locale.ROOT);
    }
}
