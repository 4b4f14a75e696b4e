package io.kaas.domain.security;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/** The client half of SCRAM (RFC 5802), computed from the password, to drive the server in tests. */
final class ScramTestClient {
    private final ScramMechanism mechanism;
    private final String user;
    private final String password;
    private final String gs2Header;
    final String clientNonce = "clientnonce42";
    private String authMessage;
    private byte[] saltedPassword;

    ScramTestClient(ScramMechanism mechanism, String user, String password, String authzid) {
        this.mechanism = mechanism;
        this.user = user;
        this.password = password;
        this.gs2Header = authzid.isEmpty() ? "n,," : "n,a=" + escape(authzid) + ",";
    }

    byte[] first() {
        return (gs2Header + bare()).getBytes(StandardCharsets.UTF_8);
    }

    private String bare() {
        return "n=" + escape(user) + ",r=" + clientNonce;
    }

    byte[] finalMessage(byte[] serverFirstBytes) {
        return finalMessage(serverFirstBytes, "");
    }

    /** The client-final message with {@code noncePrefix} before the server-first nonce in its {@code r=}. */
    byte[] finalMessage(byte[] serverFirstBytes, String noncePrefix) {
        String serverFirst = new String(serverFirstBytes, StandardCharsets.UTF_8);
        String nonce = null;
        byte[] salt = null;
        int iterations = 0;
        for (String attribute : serverFirst.split(",")) {
            switch (attribute.charAt(0)) {
                case 'r' -> nonce = attribute.substring(2);
                case 's' -> salt = Base64.getDecoder().decode(attribute.substring(2));
                case 'i' -> iterations = Integer.parseInt(attribute.substring(2));
                default -> throw new IllegalArgumentException(attribute);
            }
        }
        String withoutProof = "c=" + Base64.getEncoder().encodeToString(gs2Header.getBytes(StandardCharsets.UTF_8))
                + ",r=" + noncePrefix + nonce;
        authMessage = bare() + "," + serverFirst + "," + withoutProof;
        saltedPassword = ScramCredential.saltedPassword(mechanism, password, salt, iterations);
        byte[] clientKey = ScramCredential.hmac(mechanism, saltedPassword, "Client Key".getBytes(StandardCharsets.US_ASCII));
        byte[] storedKey = ScramCredential.hash(mechanism, clientKey);
        byte[] signature = ScramCredential.hmac(mechanism, storedKey, authMessage.getBytes(StandardCharsets.UTF_8));
        byte[] proof = new byte[clientKey.length];
        for (int i = 0; i < proof.length; i++) {
            proof[i] = (byte) (clientKey[i] ^ signature[i]);
        }
        return (withoutProof + ",p=" + Base64.getEncoder().encodeToString(proof)).getBytes(StandardCharsets.UTF_8);
    }

    String expectedServerFinal() {
        byte[] serverKey = ScramCredential.hmac(mechanism, saltedPassword, "Server Key".getBytes(StandardCharsets.US_ASCII));
        return "v=" + Base64.getEncoder().encodeToString(
                ScramCredential.hmac(mechanism, serverKey, authMessage.getBytes(StandardCharsets.UTF_8)));
    }

    private static String escape(String name) {
        return name.replace("=", "=3D").replace(",", "=2C");
    }
}
