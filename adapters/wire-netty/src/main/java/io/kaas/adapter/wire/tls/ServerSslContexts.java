package io.kaas.adapter.wire.tls;

import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.netty.handler.ssl.SupportedCipherSuiteFilter;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLException;

/** Builds a server {@link SslContext} from a listener's key material and policy. */
final class ServerSslContexts {
    private ServerSslContexts() {
    }

    /**
     * OpenSSL (BoringSSL from netty-tcnative) where its native library loads, Netty's JDK provider anywhere
     * else: the same handshake, OpenSSL's costing less CPU per connection and per encrypted byte.
     */
    static SslProvider preferredProvider() {
        return OpenSsl.isAvailable() ? SslProvider.OPENSSL : SslProvider.JDK;
    }

    static SslContext build(TlsMaterial material, TlsSettings settings, SslProvider provider) {
        // OPENSSL, not OPENSSL_REFCNT: a rotated-out context is freed by the GC once its last connection is.
        SslContextBuilder builder = SslContextBuilder
                .forServer(material.key(), material.chain().toArray(X509Certificate[]::new))
                .sslProvider(provider)
                .protocols(settings.protocols())
                .ciphers(settings.cipherSuites().isEmpty() ? null : settings.cipherSuites(),
                        SupportedCipherSuiteFilter.INSTANCE)
                .clientAuth(settings.clientAuth().netty());
        if (!material.clientCas().isEmpty()) {
            builder.trustManager(material.clientCas().toArray(X509Certificate[]::new));
        }
        try {
            return builder.build();
        } catch (SSLException | IllegalArgumentException e) {
            throw new IllegalArgumentException("cannot build a TLS context from " + settings.certFile() + ": "
                    + e.getMessage(), e);
        }
    }
}
