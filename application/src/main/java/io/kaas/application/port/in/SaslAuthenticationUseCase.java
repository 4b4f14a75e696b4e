package io.kaas.application.port.in;

import io.kaas.domain.security.SaslMechanism;
import io.kaas.domain.security.SaslServerExchange;

/**
 * Starts the server side of a SASL exchange for a connection: SaslHandshake picks the mechanism,
 * SaslAuthenticate feeds the exchange the client's tokens. Exchanges verify against the credentials
 * held in memory (never a file), so they run on the connection's event loop.
 */
public interface SaslAuthenticationUseCase {

    SaslServerExchange start(SaslMechanism mechanism);
}
