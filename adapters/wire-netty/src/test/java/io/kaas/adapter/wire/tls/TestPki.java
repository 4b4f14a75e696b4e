package io.kaas.adapter.wire.tls;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.security.interfaces.ECPrivateKey;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import javax.security.auth.x500.X500Principal;
import org.bouncycastle.asn1.DERBitString;
import org.bouncycastle.asn1.sec.SECObjectIdentifiers;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.asn1.x509.SubjectPublicKeyInfo;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.util.io.pem.PemObject;

/**
 * Certificates made in the test, as cert-manager would issue them: a CA, server certificates for
 * 127.0.0.1 and localhost, client certificates with a given subject DN; and the PEM files a listener
 * reads. BouncyCastle builds and writes them; signing and parsing stay with the JDK's providers. Public for the
 * broker's TLS listener ITs (the module's test-jar).
 */
public final class TestPki {
    private static final AtomicLong SERIALS = new AtomicLong(0x1000);

    private TestPki() {
    }

    /** A key and the chain certifying it, leaf first. */
    public record Identity(PrivateKey key, List<X509Certificate> chain) {
        public X509Certificate certificate() {
            return chain.get(0);
        }

        BigInteger serial() {
            return certificate().getSerialNumber();
        }

        /** Writes the chain to {@code certFile} and the key, PKCS#8, to {@code keyFile}. */
        public Identity writeTo(Path certFile, Path keyFile) {
            write(certFile, certificatesPem(chain.toArray(X509Certificate[]::new)));
            write(keyFile, pkcs8Pem(key));
            return this;
        }
    }

    /** A self-signed certificate authority. */
    public static final class Ca {
        private final KeyPair keys;
        private final X509Certificate certificate;

        private Ca(KeyPair keys, X509Certificate certificate) {
            this.keys = keys;
            this.certificate = certificate;
        }

        public static Ca create(String commonName) {
            KeyPair keys = ec();
            X500Name name = new X500Name("CN=" + commonName + ",O=kaas tests");
            try {
                return new Ca(keys, sign(builder(name, name, keys, Duration.ofDays(365))
                        .addExtension(Extension.basicConstraints, true, new BasicConstraints(true))
                        .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign)),
                        keys.getPrivate()));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        public X509Certificate certificate() {
            return certificate;
        }

        /** Writes this CA's certificate, the client CA bundle a listener trusts. */
        public Path writeTo(Path caFile) {
            write(caFile, certificatesPem(certificate));
            return caFile;
        }

        /** A server certificate for 127.0.0.1 and localhost, with an EC key (quick to make). */
        public Identity server() {
            return server(ec());
        }

        Identity server(KeyPair keys) {
            GeneralNames names = new GeneralNames(new GeneralName[] {
                    new GeneralName(GeneralName.iPAddress, "127.0.0.1"),
                    new GeneralName(GeneralName.dNSName, "localhost")});
            return issue("CN=localhost,O=kaas tests", keys, KeyPurposeId.id_kp_serverAuth, names, Duration.ofDays(90));
        }

        /** A client certificate with this subject DN (RFC 2253, as Apache prints it), with an EC key. */
        public Identity client(String subjectDn) {
            return issue(subjectDn, ec(), KeyPurposeId.id_kp_clientAuth, null, Duration.ofDays(90));
        }

        private Identity issue(String subject, KeyPair subjectKeys, KeyPurposeId purpose, GeneralNames names,
                               Duration validity) {
            try {
                X509v3CertificateBuilder builder = builder(X500Name.getInstance(new X500Principal(subject).getEncoded()),
                        X500Name.getInstance(certificate.getSubjectX500Principal().getEncoded()), subjectKeys, validity)
                        .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
                        .addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(purpose));
                if (names != null) {
                    builder.addExtension(Extension.subjectAlternativeName, false, names);
                }
                return new Identity(subjectKeys.getPrivate(), List.of(sign(builder, keys.getPrivate()), certificate));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    static KeyPair rsa() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    static KeyPair ec() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"));
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    static KeyPair ed25519() {
        try {
            return KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    public static String certificatesPem(X509Certificate... certificates) {
        return pem((Object[]) certificates);
    }

    /** {@code -----BEGIN PRIVATE KEY-----}: PKCS#8, what the JDK encodes. */
    public static String pkcs8Pem(PrivateKey key) {
        return pem(new PemObject("PRIVATE KEY", key.getEncoded()));
    }

    /** openssl's "traditional" form: {@code RSA PRIVATE KEY} (PKCS#1) for RSA, cert-manager's default. */
    static String pkcs1Pem(PrivateKey rsaKey) {
        return pem(rsaKey); // BouncyCastle writes an RSA key as PKCS#1
    }

    /** {@code EC PRIVATE KEY} (SEC1) naming its curve, as openssl and cert-manager write it. */
    static String sec1Pem(KeyPair pair) {
        ECPrivateKey key = (ECPrivateKey) pair.getPrivate();
        try {
            byte[] publicPoint = SubjectPublicKeyInfo.getInstance(pair.getPublic().getEncoded()).getPublicKeyData()
                    .getBytes();
            org.bouncycastle.asn1.sec.ECPrivateKey sec1 = new org.bouncycastle.asn1.sec.ECPrivateKey(256, key.getS(),
                    new DERBitString(publicPoint), SECObjectIdentifiers.secp256r1);
            return pem(new PemObject("EC PRIVATE KEY", sec1.getEncoded()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void write(Path file, String content) {
        try {
            Files.writeString(file, content, StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String pem(Object... objects) {
        StringWriter text = new StringWriter();
        try (JcaPEMWriter writer = new JcaPEMWriter(text)) {
            for (Object object : objects) {
                writer.writeObject(object);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return text.toString();
    }

    private static X509v3CertificateBuilder builder(X500Name subject, X500Name issuer, KeyPair subjectKeys,
                                                    Duration validity) {
        Instant now = Instant.now();
        return new JcaX509v3CertificateBuilder(issuer, BigInteger.valueOf(SERIALS.incrementAndGet()),
                Date.from(now.minus(Duration.ofMinutes(5))), Date.from(now.plus(validity)), subject,
                subjectKeys.getPublic());
    }

    private static X509Certificate sign(X509v3CertificateBuilder builder, PrivateKey issuerKey) {
        try {
            String algorithm = issuerKey.getAlgorithm().equals("EC") ? "SHA256withECDSA" : "SHA256withRSA";
            return new JcaX509CertificateConverter().getCertificate(
                    builder.build(new JcaContentSignerBuilder(algorithm).build(issuerKey)));
        } catch (OperatorCreationException | GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
