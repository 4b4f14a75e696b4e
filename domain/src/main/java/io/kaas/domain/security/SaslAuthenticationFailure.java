package io.kaas.domain.security;

/**
 * A SASL exchange that failed. The client is told only {@link #getMessage()} (Apache's wording, which
 * never says whether the user exists); {@link #reason()} is for the broker log.
 */
public final class SaslAuthenticationFailure extends RuntimeException {
    private final String reason;

    public SaslAuthenticationFailure(String clientMessage, String reason) {
        super(clientMessage, null, false, false);
        this.reason = reason;
    }

    /**
     * Apache's answer to anything a SaslServer rejects as bad credentials (unknown user, wrong
     * proof, malformed message): one message, so a client cannot tell an unknown user from a wrong password.
     */
    public static SaslAuthenticationFailure invalidCredentials(SaslMechanism mechanism, String reason) {
        return new SaslAuthenticationFailure("Authentication failed during authentication due to invalid credentials "
                + "with SASL mechanism " + mechanism.mechanismName(), reason);
    }

    public String reason() {
        return reason;
    }
}
