package io.kaas.adapter.wire.tls;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One TLS listener's key material and policy.
 *
 * @param certFile         PEM: the server certificate, then any intermediates (cert-manager's {@code tls.crt})
 * @param keyFile          PEM: its private key, PKCS#8, PKCS#1 RSA or SEC1 EC, unencrypted ({@code tls.key})
 * @param caFile           PEM: the CAs a client certificate must chain to ({@code ca.crt}); needed unless
 *                         {@code clientAuth} is NONE
 * @param clientAuth       Apache's {@code ssl.client.auth}
 * @param protocols        Apache's {@code ssl.enabled.protocols}
 * @param cipherSuites     Apache's {@code ssl.cipher.suites}; empty means the provider's strong defaults
 * @param reloadInterval   how often the files are checked for a new certificate (cert-manager rotation)
 * @param handshakeTimeout a connection that has not finished its handshake by then is closed
 */
public record TlsSettings(Path certFile, Path keyFile, Optional<Path> caFile, TlsClientAuth clientAuth,
                          List<String> protocols, List<String> cipherSuites, Duration reloadInterval,
                          Duration handshakeTimeout) {
    /** Apache 3.7's {@code ssl.enabled.protocols} on a JDK with TLSv1.3. */
    public static final List<String> DEFAULT_PROTOCOLS = List.of("TLSv1.3", "TLSv1.2");
    public static final Duration DEFAULT_RELOAD_INTERVAL = Duration.ofSeconds(10);
    /** Netty's default; Apache has none of its own (its idle timeout ends a stalled handshake). */
    public static final Duration DEFAULT_HANDSHAKE_TIMEOUT = Duration.ofSeconds(10);

    public TlsSettings {
        Objects.requireNonNull(certFile, "certFile");
        Objects.requireNonNull(keyFile, "keyFile");
        Objects.requireNonNull(caFile, "caFile");
        Objects.requireNonNull(clientAuth, "clientAuth");
        protocols = List.copyOf(protocols);
        cipherSuites = List.copyOf(cipherSuites);
        if (clientAuth != TlsClientAuth.NONE && caFile.isEmpty()) {
            throw new IllegalArgumentException("ssl.client.auth=" + clientAuth.configValue()
                    + " needs a CA bundle (caFile) to verify client certificates against");
        }
        if (protocols.isEmpty()) {
            throw new IllegalArgumentException("no TLS protocol enabled");
        }
        if (reloadInterval.isNegative() || reloadInterval.isZero()) {
            throw new IllegalArgumentException("the reload interval must be positive, got " + reloadInterval);
        }
        if (handshakeTimeout.isNegative() || handshakeTimeout.isZero()) {
            throw new IllegalArgumentException("the handshake timeout must be positive, got " + handshakeTimeout);
        }
    }

    /** A server certificate and key with Apache's defaults: no client certificates, TLSv1.3 and 1.2. */
    public static TlsSettings server(Path certFile, Path keyFile) {
        return new TlsSettings(certFile, keyFile, Optional.empty(), TlsClientAuth.NONE, DEFAULT_PROTOCOLS, List.of(),
                DEFAULT_RELOAD_INTERVAL, DEFAULT_HANDSHAKE_TIMEOUT);
    }

    /** These settings asking clients for certificates issued by the CAs in {@code caFile}. */
    public TlsSettings withClientAuth(TlsClientAuth mode, Path caFile) {
        return new TlsSettings(certFile, keyFile, Optional.of(caFile), mode, protocols, cipherSuites, reloadInterval,
                handshakeTimeout);
    }

    public TlsSettings withReloadInterval(Duration interval) {
        return new TlsSettings(certFile, keyFile, caFile, clientAuth, protocols, cipherSuites, interval,
                handshakeTimeout);
    }

    public TlsSettings withHandshakeTimeout(Duration timeout) {
        return new TlsSettings(certFile, keyFile, caFile, clientAuth, protocols, cipherSuites, reloadInterval,
                timeout);
    }

    public TlsSettings withProtocols(List<String> enabled) {
        return new TlsSettings(certFile, keyFile, caFile, clientAuth, enabled, cipherSuites, reloadInterval,
                handshakeTimeout);
    }
}
