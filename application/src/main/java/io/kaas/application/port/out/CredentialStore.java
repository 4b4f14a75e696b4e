package io.kaas.application.port.out;

import io.kaas.domain.security.Credentials;

/**
 * {@code __cluster/credentials.json} on the shared volume: every user's SCRAM credentials and quotas.
 * In cluster mode only the operator writes it (from KafkaUser resources); in standalone
 * {@code ./kaas user add} and the SCRAM/quota admin APIs do. Brokers re-read it to pick up changes
 * without a restart. Both calls do file I/O: call them from an I/O or control thread.
 */
public interface CredentialStore {

    /**
     * The credentials on the volume; {@link Credentials#EMPTY} before anyone wrote them.
     *
     * @throws java.io.UncheckedIOException when the file exists but cannot be read or parsed
     */
    Credentials read();

    /**
     * Replaces the credentials; durable when it returns (temp + fsync + rename).
     *
     * @throws java.io.UncheckedIOException when they could not be made durable
     */
    void write(Credentials credentials);
}
