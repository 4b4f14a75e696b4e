package io.kaas.adapter.wire.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The key and certificate encodings cert-manager, openssl and keytool write. */
class PemTest {
    private static final TestPki.Ca CA = TestPki.Ca.create("pem-test-ca");

    @Test
    void readsPkcs8KeysOfEachAlgorithm() {
        for (KeyPair pair : List.of(TestPki.rsa(), TestPki.ec(), TestPki.ed25519())) {
            PrivateKey key = Pem.privateKey(bytes(TestPki.pkcs8Pem(pair.getPrivate())), "tls.key");
            assertThat(key.getEncoded()).isEqualTo(pair.getPrivate().getEncoded());
        }
    }

    @Test
    void readsPkcs1RsaKeysCertManagersDefault() {
        KeyPair pair = TestPki.rsa();
        String pem = TestPki.pkcs1Pem(pair.getPrivate());
        assertThat(pem).startsWith("-----BEGIN RSA PRIVATE KEY-----");
        assertThat(Pem.privateKey(bytes(pem), "tls.key").getEncoded()).isEqualTo(pair.getPrivate().getEncoded());
    }

    @Test
    void readsSec1EcKeysEvenAfterAnEcParametersBlock() {
        KeyPair pair = TestPki.ec();
        String sec1 = TestPki.sec1Pem(pair);
        assertThat(sec1).startsWith("-----BEGIN EC PRIVATE KEY-----");
        // `openssl ecparam -genkey` writes the curve in a block of its own first
        String withParameters = "-----BEGIN EC PARAMETERS-----\nBggqhkjOPQMBBw==\n-----END EC PARAMETERS-----\n" + sec1;
        for (String pem : List.of(sec1, withParameters)) {
            PrivateKey key = Pem.privateKey(bytes(pem), "tls.key");
            assertThat(key.getAlgorithm()).isEqualTo("EC");
            assertThat(((java.security.interfaces.ECPrivateKey) key).getS())
                    .isEqualTo(((java.security.interfaces.ECPrivateKey) pair.getPrivate()).getS());
        }
    }

    @Test
    void aSec1KeyWithoutItsCurveIsRefusedClearly() {
        // what writing the JDK's own EC encoding as SEC1 gives: no [0] parameters
        String noCurve = TestPki.pkcs1Pem(TestPki.ec().getPrivate());
        assertThat(noCurve).startsWith("-----BEGIN EC PRIVATE KEY-----");
        assertThatThrownBy(() -> Pem.privateKey(bytes(noCurve), "tls.key"))
                .hasMessage("tls.key: the EC PRIVATE KEY does not name its curve");
    }

    @Test
    void encryptedKeysAreRefusedNamingTheFile() {
        String encryptedPkcs8 = "-----BEGIN ENCRYPTED PRIVATE KEY-----\nMIIBvTBXBgkqhkiG9w0BBQ0wSjAp\n"
                + "-----END ENCRYPTED PRIVATE KEY-----\n";
        assertThatThrownBy(() -> Pem.privateKey(bytes(encryptedPkcs8), "/etc/kaas/tls.key"))
                .hasMessageStartingWith("/etc/kaas/tls.key: the private key is encrypted");
        String legacyEncrypted = "-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\n"
                + "DEK-Info: AES-128-CBC,00112233445566778899AABBCCDDEEFF\n\nAAAA\n-----END RSA PRIVATE KEY-----\n";
        assertThatThrownBy(() -> Pem.privateKey(bytes(legacyEncrypted), "tls.key"))
                .hasMessageStartingWith("tls.key: the RSA PRIVATE KEY is encrypted");
    }

    @Test
    void aFileWithoutAKeyOrWithGarbageIsRefused() {
        String certificateOnly = TestPki.certificatesPem(CA.certificate());
        assertThatThrownBy(() -> Pem.privateKey(bytes(certificateOnly), "tls.key"))
                .hasMessageStartingWith("tls.key: no PEM private key block");
        String garbage = "-----BEGIN PRIVATE KEY-----\nAAAAAAAA\n-----END PRIVATE KEY-----\n";
        assertThatThrownBy(() -> Pem.privateKey(bytes(garbage), "tls.key"))
                .hasMessage("tls.key: not an RSA, EC or EdDSA private key");
    }

    @Test
    void readsACertificateChainInFileOrder() {
        TestPki.Identity server = CA.server();
        String bundle = "# a comment openssl leaves alone\n"
                + TestPki.certificatesPem(server.chain().toArray(X509Certificate[]::new));
        assertThat(Pem.certificates(bytes(bundle), "tls.crt")).containsExactlyElementsOf(server.chain());
    }

    @Test
    void aCertificateFileWithoutCertificatesIsRefused() {
        assertThatThrownBy(() -> Pem.certificates(bytes("not a certificate\n"), "ca.crt"))
                .hasMessage("ca.crt: no PEM CERTIFICATE block");
        String broken = "-----BEGIN CERTIFICATE-----\nAAAAAAAA\n-----END CERTIFICATE-----\n";
        assertThatThrownBy(() -> Pem.certificates(bytes(broken), "ca.crt"))
                .hasMessageStartingWith("ca.crt: not a valid X.509 certificate");
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
