package io.kaas.domain.security.oauth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.domain.security.oauth.TestJwts.Key;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonWebKeySetTest {

    @Test
    void rsaAndP256SigningKeysAreKeptByKid() {
        JsonWebKeySet keys = TestJwts.keySet(Key.rsa("r"), Key.ec("e"));

        assertThat(keys.keyIds()).containsExactlyInAnyOrder("r", "e");
        assertThat(keys.key("r").orElseThrow().key().getAlgorithm()).isEqualTo("RSA");
        assertThat(keys.key("e").orElseThrow().key().getAlgorithm()).isEqualTo("EC");
    }

    @Test
    void entriesThatCannotVerifyAnAllowedAlgorithmAreSkipped() {
        Map<String, Object> encryption = new HashMap<>(Key.rsa("enc").jwk());
        encryption.put("use", "enc");
        Map<String, Object> hmac = Map.of("kty", "oct", "kid", "hmac", "k", "c2VjcmV0");
        Map<String, Object> p384 = new HashMap<>(Key.ec("p384").jwk());
        p384.put("crv", "P-384");
        Map<String, Object> pinnedToHs = new HashMap<>(Key.rsa("pinned").jwk());
        pinnedToHs.put("alg", "HS256");
        Map<String, Object> noKid = new HashMap<>(Key.rsa("x").jwk());
        noKid.remove("kid");
        Map<String, Object> broken = new HashMap<>(Key.rsa("broken").jwk());
        broken.put("n", "***");

        JsonWebKeySet keys = JsonWebKeySet.parse(Map.of("keys",
                List.of(encryption, hmac, p384, pinnedToHs, noKid, broken, Key.ec("good").jwk())));

        assertThat(keys.keyIds()).containsExactly("good");
    }

    @Test
    void aDocumentWithoutKeysIsNotAKeySet() {
        assertThatThrownBy(() -> JsonWebKeySet.parse(Map.of("issuer", "x")))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
