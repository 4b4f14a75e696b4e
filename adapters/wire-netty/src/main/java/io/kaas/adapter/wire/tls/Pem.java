package io.kaas.adapter.wire.tls;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * PEM files as cert-manager, openssl and keytool write them: certificate bundles, and unencrypted private
 * keys in PKCS#8 ({@code PRIVATE KEY}), PKCS#1 ({@code RSA PRIVATE KEY}, cert-manager's default for RSA)
 * or SEC1 ({@code EC PRIVATE KEY}, its default for ECDSA). The JDK reads only PKCS#8, so the other two are
 * wrapped into it.
 */
final class Pem {
    private static final Pattern BLOCK = Pattern.compile(
            "-----BEGIN ([A-Z0-9 ]+)-----\\r?\\n(.*?)-----END \\1-----", Pattern.DOTALL);
    /** The algorithms a PKCS#8 key may be for, tried in turn (the key names its own; a wrong guess fails). */
    private static final List<String> KEY_ALGORITHMS = List.of("RSA", "EC", "EdDSA");

    private Pem() {
    }

    /** Every {@code CERTIFICATE} block, in file order: a chain is leaf first. */
    static List<X509Certificate> certificates(byte[] file, String source) {
        List<X509Certificate> certificates = new ArrayList<>();
        try {
            CertificateFactory factory = CertificateFactory.getInstance("X.509");
            for (Block block : blocks(file)) {
                if (block.type().equals("CERTIFICATE")) {
                    certificates.add((X509Certificate) factory.generateCertificate(
                            new ByteArrayInputStream(block.der(source))));
                }
            }
        } catch (CertificateException e) {
            throw new IllegalArgumentException(source + ": not a valid X.509 certificate: " + e.getMessage(), e);
        }
        if (certificates.isEmpty()) {
            throw new IllegalArgumentException(source + ": no PEM CERTIFICATE block");
        }
        return certificates;
    }

    /** The first private key block. */
    static PrivateKey privateKey(byte[] file, String source) {
        for (Block block : blocks(file)) {
            switch (block.type()) {
                case "PRIVATE KEY":
                    return pkcs8(block.der(source), source);
                case "RSA PRIVATE KEY":
                    return pkcs8(Der.pkcs8FromPkcs1(block.der(source)), source);
                case "EC PRIVATE KEY":
                    return pkcs8(Der.pkcs8FromSec1(block.der(source), source), source);
                case "ENCRYPTED PRIVATE KEY":
                    throw new IllegalArgumentException(source + ": the private key is encrypted; kaas reads "
                            + "unencrypted keys (a Kubernetes Secret protects the file)");
                default:
                    // another block (EC PARAMETERS, a certificate): keep looking
            }
        }
        throw new IllegalArgumentException(source + ": no PEM private key block (PRIVATE KEY, RSA PRIVATE KEY or "
                + "EC PRIVATE KEY)");
    }

    private static PrivateKey pkcs8(byte[] der, String source) {
        for (String algorithm : KEY_ALGORITHMS) {
            try {
                return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(der));
            } catch (GeneralSecurityException wrongAlgorithm) {
                // try the next
            }
        }
        throw new IllegalArgumentException(source + ": not an RSA, EC or EdDSA private key");
    }

    private static List<Block> blocks(byte[] file) {
        List<Block> blocks = new ArrayList<>();
        Matcher matcher = BLOCK.matcher(new String(file, StandardCharsets.US_ASCII));
        while (matcher.find()) {
            blocks.add(new Block(matcher.group(1), matcher.group(2)));
        }
        return blocks;
    }

    private record Block(String type, String body) {
        byte[] der(String source) {
            if (body.contains("Proc-Type:")) {
                throw new IllegalArgumentException(source + ": the " + type + " is encrypted; kaas reads "
                        + "unencrypted keys (a Kubernetes Secret protects the file)");
            }
            try {
                return Base64.getMimeDecoder().decode(body);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(source + ": the " + type + " block is not base64", e);
            }
        }
    }
}
