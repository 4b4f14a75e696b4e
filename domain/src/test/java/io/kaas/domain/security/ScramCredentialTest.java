package io.kaas.domain.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Test;

class ScramCredentialTest {
    /** RFC 7677 section 3: user "user", password "pencil". */
    private static final String CLIENT_FIRST_BARE = "n=user,r=rOprNGfwEbeRWgbNEkqO";
    private static final String SERVER_FIRST = "r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,"
            + "s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096";
    private static final String CLIENT_FINAL_WITHOUT_PROOF = "c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0";
    private static final String CLIENT_PROOF = "dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=";
    private static final String SERVER_SIGNATURE = "6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=";

    private static final ScramCredential RFC_7677 = ScramCredential.derive(ScramMechanism.SCRAM_SHA_256, "pencil",
            Base64.getDecoder().decode("W22ZaJ0SNY7soEsUEjb6gQ=="), 4096);
    private static final byte[] AUTH_MESSAGE = (CLIENT_FIRST_BARE + "," + SERVER_FIRST + ","
            + CLIENT_FINAL_WITHOUT_PROOF).getBytes(StandardCharsets.UTF_8);

    @Test
    void serverKeySignsTheRfcExchangeAsTheRfcSays() {
        byte[] signature = ScramCredential.hmac(ScramMechanism.SCRAM_SHA_256, RFC_7677.serverKey(), AUTH_MESSAGE);

        assertThat(Base64.getEncoder().encodeToString(signature)).isEqualTo(SERVER_SIGNATURE);
    }

    @Test
    void storedKeyVerifiesTheRfcClientProof() {
        byte[] clientSignature = ScramCredential.hmac(ScramMechanism.SCRAM_SHA_256, RFC_7677.storedKey(), AUTH_MESSAGE);
        byte[] clientKey = Base64.getDecoder().decode(CLIENT_PROOF);
        for (int i = 0; i < clientKey.length; i++) {
            clientKey[i] ^= clientSignature[i];
        }

        assertThat(ScramCredential.hash(ScramMechanism.SCRAM_SHA_256, clientKey)).isEqualTo(RFC_7677.storedKey());
    }

    @Test
    void aPasswordMatchesOnlyItsOwnCredential() {
        ScramCredential credential = ScramCredential.derive(ScramMechanism.SCRAM_SHA_512, "s3cret", "salt".getBytes(StandardCharsets.UTF_8), 4096);

        assertThat(credential.matches(ScramMechanism.SCRAM_SHA_512, "s3cret")).isTrue();
        assertThat(credential.matches(ScramMechanism.SCRAM_SHA_512, "s3cres")).isFalse();
        assertThat(credential.serverKey()).hasSize(64);
        assertThat(credential.toString()).doesNotContain(Base64.getEncoder().encodeToString(credential.storedKey()));
    }

    @Test
    void theSaltedPasswordPathEqualsThePasswordPath() {
        byte[] salt = "salt-bytes".getBytes(StandardCharsets.UTF_8);
        byte[] salted = ScramCredential.saltedPassword(ScramMechanism.SCRAM_SHA_512, "pw", salt, 8192);

        assertThat(ScramCredential.fromSaltedPassword(ScramMechanism.SCRAM_SHA_512, salted, salt, 8192))
                .isEqualTo(ScramCredential.derive(ScramMechanism.SCRAM_SHA_512, "pw", salt, 8192));
    }

    @Test
    void principalsParseWithColonsInTheName() {
        assertThat(KafkaPrincipal.parse("User:CN=a:b")).isEqualTo(new KafkaPrincipal("User", "CN=a:b"));
        assertThat(KafkaPrincipal.user("alice")).hasToString("User:alice");
    }
}
