package io.kaas.adapter.wire;

import io.kaas.adapter.wire.dispatch.ApiRegistry;
import io.kaas.adapter.wire.dispatch.SaslServerAuthenticator;
import io.kaas.application.port.in.SaslAuthenticationUseCase;
import io.kaas.domain.security.SaslMechanism;
import java.util.List;
import java.util.Objects;

/**
 * One Kafka listener: a port with its own API registry (whose Metadata advertises this listener's
 * port) and its own authentication: none (every connection ANONYMOUS) or SASL with the listed
 * mechanisms behind the pre-authentication gate.
 *
 * @param name           the listener's name, as in {@code KAAS_LISTENERS}
 * @param port           port to bind, 0 for an ephemeral one
 * @param registry       the APIs served on this listener
 * @param saslMechanisms the enabled SASL mechanisms in handshake order; empty for no authentication
 * @param authentication starts the SASL exchanges; null without SASL
 */
public record WireListener(String name, int port, ApiRegistry registry, List<SaslMechanism> saslMechanisms,
                           SaslAuthenticationUseCase authentication) {
    public WireListener {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(registry, "registry");
        saslMechanisms = List.copyOf(saslMechanisms);
        if (!saslMechanisms.isEmpty() && authentication == null) {
            throw new IllegalArgumentException("listener " + name + " enables SASL without an authenticator");
        }
    }

    /** A listener without authentication. */
    public static WireListener plaintext(String name, int port, ApiRegistry registry) {
        return new WireListener(name, port, registry, List.of(), null);
    }

    public boolean authenticates() {
        return !saslMechanisms.isEmpty();
    }

    /** A new connection's gate; only for a listener that {@link #authenticates()}. */
    SaslServerAuthenticator newAuthenticator() {
        return new SaslServerAuthenticator(saslMechanisms, authentication);
    }
}
