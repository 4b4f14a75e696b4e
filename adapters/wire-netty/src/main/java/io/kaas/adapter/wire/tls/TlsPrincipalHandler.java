package io.kaas.adapter.wire.tls;

import io.kaas.domain.security.KafkaPrincipal;
import io.kaas.domain.security.SslPrincipalMapping;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.util.AttributeKey;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.Optional;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sits right after the {@link SslHandler} of a TLS listener's connection and, when the handshake
 * completes, gives the connection its principal as Apache's default principal builder does: the client
 * certificate's subject DN through {@code ssl.principal.mapping.rules}, or ANONYMOUS when the client
 * presented none (client auth {@code none} or {@code requested}). A certificate no rule maps is refused by
 * closing the connection, as Apache fails that authentication. The principal is a channel attribute
 * ({@link #principal(Channel)}), set before any request is read: the handshake event precedes the first
 * decrypted bytes. Failed handshakes (wrong CA, plaintext on the TLS port, a stalled handshake) are
 * logged as Apache logs them; the {@code SslHandler} closes those connections itself.
 */
public final class TlsPrincipalHandler extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(TlsPrincipalHandler.class);

    /** The principal the TLS handshake established; unset before it completes. */
    public static final AttributeKey<KafkaPrincipal> PRINCIPAL = AttributeKey.valueOf("kaas.tls.principal");

    private final SslPrincipalMapping mapping;

    public TlsPrincipalHandler(SslPrincipalMapping mapping) {
        this.mapping = mapping;
    }

    /** The connection's TLS principal; ANONYMOUS before the handshake completes or on a plaintext listener. */
    public static KafkaPrincipal principal(Channel channel) {
        KafkaPrincipal principal = channel.attr(PRINCIPAL).get();
        return principal == null ? KafkaPrincipal.ANONYMOUS : principal;
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) throws Exception {
        if (event instanceof SslHandshakeCompletionEvent done) {
            if (!done.isSuccess()) {
                LOG.info("Failed authentication with {} (SSL handshake failed: {})", ctx.channel().remoteAddress(),
                        done.cause().getMessage());
            } else if (!authenticated(ctx)) {
                return;
            }
            ctx.fireUserEventTriggered(event);
            ctx.pipeline().remove(this); // one handshake per connection: nothing more to watch
            return;
        }
        super.userEventTriggered(ctx, event);
    }

    private boolean authenticated(ChannelHandlerContext ctx) {
        Optional<String> subject = peerSubject(ctx.pipeline().get(SslHandler.class).engine().getSession());
        Optional<KafkaPrincipal> principal;
        try {
            principal = subject.isEmpty() ? Optional.of(KafkaPrincipal.ANONYMOUS) : mapping.principal(subject.get());
        } catch (RuntimeException e) {
            // a replacement the rules' parse could not vet failed on this DN: Apache fails the authentication too
            LOG.warn("ssl.principal.mapping.rules failed on '{}': {}", subject.get(), e.toString());
            principal = Optional.empty();
        }
        if (principal.isEmpty()) {
            LOG.info("Failed authentication with {} (no ssl.principal.mapping.rules entry maps '{}')",
                    ctx.channel().remoteAddress(), subject.orElseThrow());
            ctx.close();
            return false;
        }
        ctx.channel().attr(PRINCIPAL).set(principal.get());
        LOG.debug("TLS connection from {} authenticated as {}", ctx.channel().remoteAddress(), principal.get());
        return true;
    }

    /** The client certificate's subject DN in RFC 2253 form, as Apache maps it; empty without a certificate. */
    private static Optional<String> peerSubject(SSLSession session) {
        try {
            Certificate[] peer = session.getPeerCertificates();
            return Optional.of(((X509Certificate) peer[0]).getSubjectX500Principal().getName());
        } catch (SSLPeerUnverifiedException noCertificate) {
            return Optional.empty();
        }
    }
}
