package io.kaas.adapter.wire.tls;

import java.io.BufferedReader;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.net.Socket;
import java.security.KeyStore;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedKeyManager;

/** A blocking JDK TLS client ({@code SSLSocket}), as a Java Kafka client's TLS stack is the JDK's. */
final class TlsClients {
    private static final char[] PASSWORD = "test".toCharArray();

    private TlsClients() {
    }

    /** A context trusting {@code serverCa}, presenting {@code identity} when not null. */
    static SSLContext context(X509Certificate serverCa, TestPki.Identity identity) {
        try {
            KeyStore trust = KeyStore.getInstance("PKCS12");
            trust.load(null, null);
            trust.setCertificateEntry("ca", serverCa);
            TrustManagerFactory trustManagers = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trustManagers.init(trust);
            KeyManagerFactory keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            KeyStore keys = KeyStore.getInstance("PKCS12");
            keys.load(null, null);
            if (identity != null) {
                keys.setKeyEntry("client", identity.key(), PASSWORD, identity.chain().toArray(X509Certificate[]::new));
            }
            keyManagers.init(keys, PASSWORD);
            KeyManager[] presenting = identity == null ? keyManagers.getKeyManagers()
                    : new KeyManager[] {new AlwaysPresent((X509ExtendedKeyManager) keyManagers.getKeyManagers()[0])};
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(presenting, trustManagers.getTrustManagers(), null);
            return context;
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Presents the certificate even when the server asks for another CA's: the JDK's own key manager
     * stays silent then, and the server would only see a client without a certificate.
     */
    private static final class AlwaysPresent extends X509ExtendedKeyManager {
        private final X509ExtendedKeyManager keys;

        AlwaysPresent(X509ExtendedKeyManager keys) {
            this.keys = keys;
        }

        @Override
        public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
            return "client";
        }

        @Override
        public String chooseEngineClientAlias(String[] keyType, Principal[] issuers, SSLEngine engine) {
            return "client";
        }

        @Override
        public String[] getClientAliases(String keyType, Principal[] issuers) {
            return new String[] {"client"};
        }

        @Override
        public String[] getServerAliases(String keyType, Principal[] issuers) {
            return null;
        }

        @Override
        public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
            return null;
        }

        @Override
        public X509Certificate[] getCertificateChain(String alias) {
            return keys.getCertificateChain(alias);
        }

        @Override
        public PrivateKey getPrivateKey(String alias) {
            return keys.getPrivateKey(alias);
        }
    }

    /** An open, handshaken connection to 127.0.0.1:port speaking the echo servers' line protocol. */
    static final class Connection implements AutoCloseable {
        private final SSLSocket socket;
        private final BufferedReader in;
        private final OutputStream out;

        Connection(SSLContext context, int port, String... protocols) throws IOException {
            socket = (SSLSocket) context.getSocketFactory().createSocket("127.0.0.1", port);
            socket.setSoTimeout(10_000);
            if (protocols.length > 0) {
                socket.setEnabledProtocols(protocols);
            }
            socket.startHandshake();
            in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
            out = socket.getOutputStream();
        }

        /** Sends a line and returns the server's answer; EOFException when the server closed instead. */
        String exchange(String line) throws IOException {
            out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
            String answer = in.readLine();
            if (answer == null) {
                throw new EOFException("the server closed the connection");
            }
            return answer;
        }

        X509Certificate serverCertificate() throws IOException {
            return (X509Certificate) socket.getSession().getPeerCertificates()[0];
        }

        String protocol() {
            return socket.getSession().getProtocol();
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
