package io.kaas.adapter.wire.tls;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.X509Certificate;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * The key material of a TLS listener as read from its PEM files at one moment: the certificate chain,
 * the key (checked to belong to the leaf certificate, so a key and certificate read across a rotation
 * never pair up) and the client CAs, with a digest of the files' bytes that tells whether they changed.
 */
record TlsMaterial(List<X509Certificate> chain, PrivateKey key, List<X509Certificate> clientCas, Digest digest) {
    /** SHA-256 of the files' bytes. */
    record Digest(byte[] sha256) {
        @Override
        public boolean equals(Object other) {
            return other instanceof Digest that && Arrays.equals(sha256, that.sha256);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(sha256);
        }

        @Override
        public String toString() {
            return HexFormat.of().formatHex(sha256, 0, 8);
        }
    }

    /** The raw file contents: cheap to read every few seconds, parsed only when their digest changed. */
    record Contents(byte[] cert, byte[] key, Optional<byte[]> ca) {
        static Contents read(TlsSettings settings) throws IOException {
            return new Contents(readFile(settings.certFile()), readFile(settings.keyFile()),
                    settings.caFile().isPresent() ? Optional.of(readFile(settings.caFile().get())) : Optional.empty());
        }

        private static byte[] readFile(Path path) throws IOException {
            return Files.readAllBytes(path);
        }

        Digest digest() {
            try {
                MessageDigest sha = MessageDigest.getInstance("SHA-256");
                for (byte[] part : ca.isPresent() ? List.of(cert, key, ca.get()) : List.of(cert, key)) {
                    sha.update(ByteBuffer.allocate(Integer.BYTES).putInt(part.length).array());
                    sha.update(part);
                }
                return new Digest(sha.digest());
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException("every JDK has SHA-256", e);
            }
        }
    }

    X509Certificate leaf() {
        return chain.get(0);
    }

    /**
     * Parses the files read from {@code settings}' paths.
     *
     * @throws IllegalArgumentException naming the file and what is wrong with it
     */
    static TlsMaterial parse(Contents files, TlsSettings settings) {
        List<X509Certificate> chain = Pem.certificates(files.cert(), settings.certFile().toString());
        PrivateKey key = Pem.privateKey(files.key(), settings.keyFile().toString());
        checkPair(key, chain.get(0).getPublicKey(), settings);
        List<X509Certificate> cas = files.ca().isPresent()
                ? Pem.certificates(files.ca().get(), settings.caFile().orElseThrow().toString())
                : List.of();
        return new TlsMaterial(chain, key, cas, files.digest());
    }

    /** Signs a random challenge with the key and verifies it with the certificate's public key. */
    private static void checkPair(PrivateKey key, PublicKey certified, TlsSettings settings) {
        String algorithm = switch (key.getAlgorithm()) {
            case "RSA" -> "SHA256withRSA";
            case "EC" -> "SHA256withECDSA";
            default -> key.getAlgorithm(); // EdDSA, Ed25519, Ed448 sign with their own name
        };
        byte[] challenge = new byte[32];
        new SecureRandom().nextBytes(challenge);
        boolean matches;
        try {
            Signature signer = Signature.getInstance(algorithm);
            signer.initSign(key);
            signer.update(challenge);
            byte[] signature = signer.sign();
            Signature verifier = Signature.getInstance(algorithm);
            verifier.initVerify(certified);
            verifier.update(challenge);
            matches = verifier.verify(signature);
        } catch (GeneralSecurityException e) {
            matches = false; // a key of another type than the certificate's
        }
        if (!matches) {
            throw new IllegalArgumentException(settings.keyFile() + " is not the private key of the certificate in "
                    + settings.certFile());
        }
    }
}
