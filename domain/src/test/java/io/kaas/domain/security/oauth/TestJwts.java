package io.kaas.domain.security.oauth;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.ECGenParameterSpec;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Keys generated for a test and tokens signed with them, independently of the validator: ES256 tokens are
 * signed with the JDK's DER ECDSA and converted to the JWS {@code r || s} form here.
 */
public final class TestJwts {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** What the broker hands the domain: Jackson's maps. */
    public static final JsonObjectReader READER = bytes -> {
        try {
            return JSON.readValue(bytes, new TypeReference<Map<String, Object>>() { });
        } catch (IOException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    };

    private TestJwts() {
    }

    /** A key pair with its kid. */
    public record Key(String kid, KeyPair pair) {
        public static Key rsa(String kid) {
            return new Key(kid, generate("RSA", null));
        }

        public static Key ec(String kid) {
            return new Key(kid, generate("EC", new ECGenParameterSpec("secp256r1")));
        }

        /** Its public JWK. */
        public Map<String, Object> jwk() {
            Map<String, Object> jwk = new LinkedHashMap<>();
            jwk.put("kid", kid);
            jwk.put("use", "sig");
            if (pair.getPublic() instanceof RSAPublicKey rsa) {
                jwk.put("kty", "RSA");
                jwk.put("n", b64(unsigned(rsa.getModulus(), 0)));
                jwk.put("e", b64(unsigned(rsa.getPublicExponent(), 0)));
            } else {
                ECPublicKey ec = (ECPublicKey) pair.getPublic();
                jwk.put("kty", "EC");
                jwk.put("crv", "P-256");
                jwk.put("x", b64(unsigned(ec.getW().getAffineX(), 32)));
                jwk.put("y", b64(unsigned(ec.getW().getAffineY(), 32)));
            }
            return jwk;
        }

        /** A compact JWS of {@code claims} with {@code alg} and this key's kid. */
        public String sign(String alg, Map<String, Object> claims) {
            return TestJwts.sign(Map.of("alg", alg, "kid", kid, "typ", "JWT"), claims, this, alg);
        }
    }

    /** A JWKS document of these keys, as JSON. */
    public static String jwks(Key... keys) {
        return json(Map.of("keys", Arrays.stream(keys).map(Key::jwk).toList()));
    }

    public static JsonWebKeySet keySet(Key... keys) {
        return JsonWebKeySet.parse(READER.read(jwks(keys).getBytes(StandardCharsets.UTF_8)));
    }

    /** Signs header.payload with {@code key} under {@code alg} (RS256/384/512, ES256). */
    public static String sign(Map<String, Object> header, Map<String, Object> claims, Key key, String alg) {
        String input = b64(json(header).getBytes(StandardCharsets.UTF_8)) + "."
                + b64(json(claims).getBytes(StandardCharsets.UTF_8));
        try {
            Signature signature = Signature.getInstance(switch (alg) {
                case "RS256" -> "SHA256withRSA";
                case "RS384" -> "SHA384withRSA";
                case "RS512" -> "SHA512withRSA";
                case "ES256" -> "SHA256withECDSA";
                default -> throw new IllegalArgumentException(alg);
            });
            signature.initSign(key.pair().getPrivate());
            signature.update(input.getBytes(StandardCharsets.US_ASCII));
            byte[] bytes = signature.sign();
            return input + "." + b64(alg.equals("ES256") ? derToConcatenated(bytes) : bytes);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Claims of a token valid from {@code nowMs} for an hour. */
    public static Map<String, Object> claims(String issuer, String subject, long nowMs) {
        Map<String, Object> claims = new LinkedHashMap<>();
        claims.put("iss", issuer);
        claims.put("sub", subject);
        claims.put("iat", nowMs / 1000);
        claims.put("nbf", nowMs / 1000);
        claims.put("exp", nowMs / 1000 + 3600);
        claims.put("aud", List.of("kafka"));
        return claims;
    }

    public static String b64(byte[] bytes) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    public static String json(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** DER {@code SEQUENCE { INTEGER r, INTEGER s }} to the 64-byte {@code r || s} of RFC 7518 §3.4. */
    private static byte[] derToConcatenated(byte[] der) {
        int offset = 2 + ((der[1] & 0x80) != 0 ? der[1] & 0x7f : 0); // past the SEQUENCE header
        int rLength = der[offset + 1];
        BigInteger r = new BigInteger(1, Arrays.copyOfRange(der, offset + 2, offset + 2 + rLength));
        offset += 2 + rLength;
        int sLength = der[offset + 1];
        BigInteger s = new BigInteger(1, Arrays.copyOfRange(der, offset + 2, offset + 2 + sLength));
        byte[] out = new byte[64];
        System.arraycopy(unsigned(r, 32), 0, out, 0, 32);
        System.arraycopy(unsigned(s, 32), 0, out, 32, 32);
        return out;
    }

    /** Big-endian without a sign byte, left-padded to {@code length} when it is positive. */
    private static byte[] unsigned(BigInteger value, int length) {
        byte[] bytes = value.toByteArray();
        if (bytes.length > 1 && bytes[0] == 0) {
            bytes = Arrays.copyOfRange(bytes, 1, bytes.length);
        }
        if (bytes.length >= length) {
            return bytes;
        }
        byte[] padded = new byte[length];
        System.arraycopy(bytes, 0, padded, length - bytes.length, bytes.length);
        return padded;
    }

    private static KeyPair generate(String algorithm, ECGenParameterSpec curve) {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance(algorithm);
            if (curve != null) {
                generator.initialize(curve);
            } else {
                generator.initialize(2048);
            }
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
