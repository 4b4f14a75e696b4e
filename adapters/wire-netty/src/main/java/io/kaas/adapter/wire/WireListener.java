package io.kaas.adapter.wire;

import io.kaas.adapter.wire.dispatch.ApiRegistry;
import io.kaas.adapter.wire.dispatch.SaslServerAuthenticator;
import io.kaas.adapter.wire.tls.TlsSettings;
import io.kaas.application.port.in.SaslAuthenticationUseCase;
import io.kaas.domain.security.SaslMechanism;
import io.kaas.domain.security.SslPrincipalMapping;
import java.util.List;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * One Kafka listener: a port with its own API registry (whose Metadata advertises this listener's
 * port) and its own authentication: none (every connection ANONYMOUS) or SASL with the listed
 * mechanisms behind the pre-authentication gate; over plaintext or TLS (where a client certificate,
 * if the listener asks for one, is the principal of a connection that does not authenticate by SASL).
 *
 * @param name           the listener's name, as in {@code KAAS_LISTENERS}
 * @param port           port to bind, 0 for an ephemeral one
 * @param registry       the APIs served on this listener
 * @param saslMechanisms the enabled SASL mechanisms in handshake order; empty for no authentication
 * @param authentication starts the SASL exchanges; null without SASL
 * @param tls            the TLS files and policy, and how a client certificate becomes a principal; null for
 *                       plaintext
 * @param sessions       how long a SASL session lasts before the client must re-authenticate (KIP-368)
 */
public record WireListener(String name, int port, ApiRegistry registry, List<SaslMechanism> saslMechanisms,
                           SaslAuthenticationUseCase authentication, Tls tls, Sessions sessions) {

    /**
     * KIP-368 on this listener.
     *
     * @param connectionsMaxReauthMs Apache's {@code connections.max.reauth.ms}: the longest SASL session; 0: no
     *                               bound (a bearer token's expiry still ends its session)
     * @param clock                  what sessions are timed by: milliseconds since the epoch
     */
    public record Sessions(long connectionsMaxReauthMs, LongSupplier clock) {
        public Sessions {
            Objects.requireNonNull(clock, "clock");
            if (connectionsMaxReauthMs < 0) {
                throw new IllegalArgumentException("connections.max.reauth.ms must not be negative");
            }
        }
    }

    /** A TLS listener's settings and {@code ssl.principal.mapping.rules}. */
    public record Tls(TlsSettings settings, SslPrincipalMapping principalMapping) {
        public Tls {
            Objects.requireNonNull(settings, "settings");
            Objects.requireNonNull(principalMapping, "principalMapping");
        }
    }

    public WireListener {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(registry, "registry");
        saslMechanisms = List.copyOf(saslMechanisms);
        if (!saslMechanisms.isEmpty() && (authentication == null || sessions == null)) {
            throw new IllegalArgumentException("listener " + name + " enables SASL without an authenticator");
        }
    }

    /** A listener without authentication. */
    public static WireListener plaintext(String name, int port, ApiRegistry registry) {
        return new WireListener(name, port, registry, List.of(), null, null, null);
    }

    public boolean authenticates() {
        return !saslMechanisms.isEmpty();
    }

    /** A new connection's gate; only for a listener that {@link #authenticates()}. */
    SaslServerAuthenticator newAuthenticator() {
        return new SaslServerAuthenticator(saslMechanisms, authentication, sessions.connectionsMaxReauthMs(),
                sessions.clock());
    }
}
