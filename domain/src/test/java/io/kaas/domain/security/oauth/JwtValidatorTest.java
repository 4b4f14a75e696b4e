package io.kaas.domain.security.oauth;

import static io.kaas.domain.security.oauth.TestJwts.b64;
import static io.kaas.domain.security.oauth.TestJwts.claims;
import static io.kaas.domain.security.oauth.TestJwts.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.domain.security.oauth.TestJwts.Key;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class JwtValidatorTest {
    private static final String ISSUER = "https://issuer.example/realms/kafka";
    private static final long NOW = 1_800_000_000_000L;
    private static final long SKEW = 60_000;
    private static final Key RSA = Key.rsa("rsa-1");
    private static final Key EC = Key.ec("ec-1");
    private static final JsonWebKeySet KEYS = TestJwts.keySet(RSA, EC);

    private final JwtValidator validator = new JwtValidator(
            new JwtPolicy(ISSUER, Optional.of("kafka"), "sub", Optional.empty(), SKEW), TestJwts.READER);

    @ParameterizedTest
    @ValueSource(strings = {"RS256", "RS384", "RS512"})
    void anRsaSignedTokenIsAcceptedUnderEachAllowedAlgorithm(String alg) {
        ValidatedToken token = validator.validate(RSA.sign(alg, claims(ISSUER, "alice", NOW)), KEYS, NOW);

        assertThat(token.principalName()).isEqualTo("alice");
        assertThat(token.expiresAtMs()).isEqualTo(NOW + 3_600_000);
    }

    @Test
    void anEs256TokenWithItsRawSignatureIsAccepted() {
        assertThat(validator.validate(EC.sign("ES256", claims(ISSUER, "bob", NOW)), KEYS, NOW).principalName())
                .isEqualTo("bob");
    }

    @Test
    void aTamperedPayloadFailsTheSignature() {
        String[] parts = RSA.sign("RS256", claims(ISSUER, "alice", NOW)).split("\\.");
        String forged = parts[0] + "." + b64(json(claims(ISSUER, "admin", NOW)).getBytes(StandardCharsets.UTF_8))
                + "." + parts[2];

        assertRefused(forged, NOW, "signature does not verify");
    }

    @Test
    void aTokenSignedWithAnotherKeyUnderAKnownKidIsRefused() {
        Key impostor = new Key("rsa-1", Key.rsa("other").pair());

        assertRefused(impostor.sign("RS256", claims(ISSUER, "alice", NOW)), NOW, "signature does not verify");
    }

    @Test
    void theKeyMustFitTheAlgorithm() {
        Key ecUnderRsaKid = new Key("ec-1", RSA.pair());

        assertRefused(ecUnderRsaKid.sign("RS256", claims(ISSUER, "alice", NOW)), NOW, "cannot verify RS256");
    }

    @Test
    void expiryAndNotBeforeHoldWithinTheClockSkew() {
        String token = RSA.sign("RS256", claims(ISSUER, "alice", NOW));
        long exp = NOW + 3_600_000;

        assertThat(validator.validate(token, KEYS, exp + SKEW).principalName()).isEqualTo("alice");
        assertRefused(token, exp + SKEW + 1, "expired");
        assertThat(validator.validate(token, KEYS, NOW - SKEW).principalName()).isEqualTo("alice");
        assertRefused(token, NOW - SKEW - 1, "not valid before");
    }

    @Test
    void aTokenWithoutExpIsRefused() {
        Map<String, Object> claims = new HashMap<>(claims(ISSUER, "alice", NOW));
        claims.remove("exp");

        assertRefused(RSA.sign("RS256", claims), NOW, "no exp");
    }

    @Test
    void theIssuerMustMatchExactly() {
        assertRefused(RSA.sign("RS256", claims(ISSUER + "/", "alice", NOW)), NOW, "iss");
        assertRefused(RSA.sign("RS256", claims("https://evil.example", "alice", NOW)), NOW, "iss");
    }

    @Test
    void theAudienceMustBeHeldWhenRequired() {
        Map<String, Object> other = new HashMap<>(claims(ISSUER, "alice", NOW));
        other.put("aud", List.of("billing"));
        Map<String, Object> single = new HashMap<>(claims(ISSUER, "alice", NOW));
        single.put("aud", "kafka");
        Map<String, Object> none = new HashMap<>(claims(ISSUER, "alice", NOW));
        none.remove("aud");

        assertRefused(RSA.sign("RS256", other), NOW, "aud");
        assertRefused(RSA.sign("RS256", none), NOW, "aud");
        assertThat(validator.validate(RSA.sign("RS256", single), KEYS, NOW).principalName()).isEqualTo("alice");
        JwtValidator anyAudience = new JwtValidator(new JwtPolicy(ISSUER, Optional.empty(), "sub", Optional.empty(),
                SKEW), TestJwts.READER);
        assertThat(anyAudience.validate(RSA.sign("RS256", other), KEYS, NOW).principalName()).isEqualTo("alice");
    }

    @Test
    void thePrincipalComesFromTheUserNameClaimOrItsFallback() {
        JwtValidator byClientId = new JwtValidator(new JwtPolicy(ISSUER, Optional.empty(), "preferred_username",
                Optional.of("client_id"), SKEW), TestJwts.READER);
        Map<String, Object> user = new HashMap<>(claims(ISSUER, "uuid-1", NOW));
        user.put("preferred_username", "carol");
        Map<String, Object> service = new HashMap<>(claims(ISSUER, "uuid-2", NOW));
        service.put("client_id", "billing-service");

        assertThat(byClientId.validate(RSA.sign("RS256", user), KEYS, NOW).principalName()).isEqualTo("carol");
        assertThat(byClientId.validate(RSA.sign("RS256", service), KEYS, NOW).principalName())
                .isEqualTo("billing-service");
        assertThatThrownBy(() -> byClientId.validate(RSA.sign("RS256", claims(ISSUER, "uuid-3", NOW)), KEYS, NOW))
                .isInstanceOf(InvalidTokenException.class).hasMessageContaining("no user name");
    }

    @Test
    void anUnknownKidIsReportedSoTheKeysCanBeFetchedAgain() {
        Key rotated = Key.rsa("rsa-2");

        assertThatThrownBy(() -> validator.validate(rotated.sign("RS256", claims(ISSUER, "alice", NOW)), KEYS, NOW))
                .isInstanceOfSatisfying(InvalidTokenException.class,
                        e -> assertThat(e.unknownKeyId()).contains("rsa-2"));
        assertThat(validator.validate(rotated.sign("RS256", claims(ISSUER, "alice", NOW)),
                TestJwts.keySet(RSA, rotated), NOW).principalName()).isEqualTo("alice");
    }

    @Test
    void everyTokenIsRefusedBeforeTheKeysWereFetched() {
        assertThatThrownBy(() -> validator.validate(RSA.sign("RS256", claims(ISSUER, "alice", NOW)), null, NOW))
                .isInstanceOf(InvalidTokenException.class).hasMessageContaining("no signing keys yet");
    }

    @Test
    void algNoneIsRefused() {
        String unsigned = b64(json(Map.of("alg", "none", "kid", "rsa-1")).getBytes(StandardCharsets.UTF_8)) + "."
                + b64(json(claims(ISSUER, "alice", NOW)).getBytes(StandardCharsets.UTF_8)) + ".";

        assertRefused(unsigned, NOW, "not a signed JWT");
        assertRefused(unsigned + "c2ln", NOW, "alg none is not allowed");
    }

    /** The algorithm-confusion attack: HMAC keyed with the bytes of the issuer's public key. */
    @Test
    void anHs256TokenKeyedWithThePublicKeyIsRefused() throws Exception {
        String input = b64(json(Map.of("alg", "HS256", "kid", "rsa-1")).getBytes(StandardCharsets.UTF_8)) + "."
                + b64(json(claims(ISSUER, "alice", NOW)).getBytes(StandardCharsets.UTF_8));
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(RSA.pair().getPublic().getEncoded(), "HmacSHA256"));
        String forged = input + "." + b64(mac.doFinal(input.getBytes(StandardCharsets.US_ASCII)));

        assertRefused(forged, NOW, "alg HS256 is not allowed");
    }

    @Test
    void aHeaderWithCriticalExtensionsOrWithoutKidIsRefused() {
        assertRefused(TestJwts.sign(Map.of("alg", "RS256", "kid", "rsa-1", "crit", List.of("exp")),
                claims(ISSUER, "alice", NOW), RSA, "RS256"), NOW, "critical");
        assertRefused(TestJwts.sign(Map.of("alg", "RS256"), claims(ISSUER, "alice", NOW), RSA, "RS256"), NOW, "kid");
    }

    @Test
    void garbageIsRefusedNotThrownAsAnythingElse() {
        for (String garbage : List.of("", "a.b", "a.b.c", "!!!.???.###", "e30.e30.e30", "eyJhbGciOiJSUzI1NiJ9.x.y")) {
            assertThatThrownBy(() -> validator.validate(garbage, KEYS, NOW)).isInstanceOf(InvalidTokenException.class);
        }
    }

    private void assertRefused(String token, long nowMs, String reason) {
        assertThatThrownBy(() -> validator.validate(token, KEYS, nowMs))
                .isInstanceOf(InvalidTokenException.class).hasMessageContaining(reason);
    }
}
