package io.kaas.domain.security;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.Objects;

/**
 * The server side of SCRAM-SHA-256 / SCRAM-SHA-512 (RFC 5802, RFC 7677) as Apache's ScramSaslServer
 * runs it: client-first {@code n,,n=user,r=cnonce} → server-first {@code r=cnonce+snonce,s=salt,i=n} →
 * client-final {@code c=biws,r=..,p=proof} → server-final {@code v=signature}. No channel binding
 * (the gs2 flag must be {@code n}); an authorization id, if sent, must be the user; delegation tokens
 * ({@code tokenauth}) are not served, so such a client fails as an unknown user would. A client-final
 * nonce that only ends with the server-first one is accepted, as by Apache 3.7.2, for librdkafka before
 * 2.6.1. Every failure that could tell an unknown user from a wrong password says the same thing. The
 * proof is checked in constant time. Deterministic: the server nonce is given.
 */
public final class ScramServerExchange implements SaslServerExchange {
    private static final Base64.Encoder B64 = Base64.getEncoder();
    private static final Base64.Decoder B64_DECODER = Base64.getDecoder();

    private enum State { CLIENT_FIRST, CLIENT_FINAL, COMPLETE, FAILED }

    private final ScramMechanism scram;
    private final SaslMechanism mechanism;
    private final Credentials credentials;
    private final String serverNonce;
    private State state = State.CLIENT_FIRST;
    private String user;
    private String gs2Header;
    private String clientFirstBare;
    private String serverFirst;
    private String nonce;
    private ScramCredential credential;

    /**
     * @param credentials the users as they are when the exchange starts
     * @param serverNonce this exchange's random part of the nonce: printable ASCII without commas
     */
    public ScramServerExchange(ScramMechanism scram, Credentials credentials, String serverNonce) {
        this.scram = scram;
        this.mechanism = scram == ScramMechanism.SCRAM_SHA_256 ? SaslMechanism.SCRAM_SHA_256 : SaslMechanism.SCRAM_SHA_512;
        this.credentials = Objects.requireNonNull(credentials);
        this.serverNonce = serverNonce;
    }

    @Override
    public SaslMechanism mechanism() {
        return mechanism;
    }

    @Override
    public byte[] evaluate(byte[] clientToken) {
        try {
            String message = new String(clientToken, StandardCharsets.UTF_8);
            return switch (state) {
                case CLIENT_FIRST -> clientFirst(message);
                case CLIENT_FINAL -> clientFinal(message);
                case COMPLETE, FAILED -> throw new SaslAuthenticationFailure(
                        "Unexpected challenge in Sasl server state " + state, "a token after the exchange ended");
            };
        } catch (SaslAuthenticationFailure e) {
            state = State.FAILED;
            credential = null;
            throw e;
        }
    }

    private byte[] clientFirst(String message) {
        // gs2-header: "n," [ "a=" authzid ] ","
        if (!message.startsWith("n,")) {
            throw invalid("client-first message without the 'n' channel-binding flag: " + printable(message));
        }
        int headerEnd = message.indexOf(',', 2);
        if (headerEnd < 0) {
            throw invalid("client-first message without a gs2 header");
        }
        String authzidAttribute = message.substring(2, headerEnd);
        gs2Header = message.substring(0, headerEnd + 1);
        clientFirstBare = message.substring(headerEnd + 1);
        String[] attributes = clientFirstBare.split(",", -1);
        int i = 0;
        if (i < attributes.length && attributes[i].startsWith("m=")) {
            i++; // reserved mandatory-extension attribute, unused by any SCRAM variant Kafka speaks
        }
        if (attributes.length < i + 2 || !attributes[i].startsWith("n=") || !attributes[i + 1].startsWith("r=")) {
            throw invalid("client-first message without user and nonce: " + printable(message));
        }
        user = saslName(attributes[i].substring(2));
        String clientNonce = attributes[i + 1].substring(2);
        if (user.isEmpty() || clientNonce.isEmpty()) {
            throw invalid("client-first message with an empty user or nonce");
        }
        for (int e = i + 2; e < attributes.length; e++) {
            if (attributes[e].equals("tokenauth=true")) {
                throw invalid("delegation-token authentication (tokenauth) requested by " + user
                        + "; delegation tokens are not served");
            }
        }
        credential = credentials.user(user).flatMap(u -> u.scram(scram)).orElse(null);
        if (credential == null) {
            throw invalid("no " + mechanism.mechanismName() + " credential for user " + user);
        }
        String authzid = authzidAttribute.isEmpty() ? "" : authzidAttribute.startsWith("a=")
                ? saslName(authzidAttribute.substring(2)) : null;
        if (authzid == null) {
            throw invalid("malformed authorization id in the gs2 header");
        }
        if (!authzid.isEmpty() && !authzid.equals(user)) {
            throw new SaslAuthenticationFailure(
                    "Authentication failed: Client requested an authorization id that is different from username",
                    user + " asked to act as " + authzid);
        }
        if (credential.iterations() < ScramMechanism.MIN_ITERATIONS) {
            throw invalid("the stored credential of " + user + " has " + credential.iterations()
                    + " iterations, fewer than " + ScramMechanism.MIN_ITERATIONS);
        }
        nonce = clientNonce + serverNonce;
        serverFirst = "r=" + nonce + ",s=" + B64.encodeToString(credential.salt()) + ",i=" + credential.iterations();
        state = State.CLIENT_FINAL;
        return serverFirst.getBytes(StandardCharsets.UTF_8);
    }

    private byte[] clientFinal(String message) {
        int proofAt = message.lastIndexOf(",p=");
        if (proofAt < 0) {
            throw invalid("client-final message without a proof");
        }
        String withoutProof = message.substring(0, proofAt);
        String[] attributes = withoutProof.split(",", -1);
        if (attributes.length < 2 || !attributes[0].startsWith("c=") || !attributes[1].startsWith("r=")) {
            throw invalid("client-final message without channel binding and nonce");
        }
        String expectedBinding = B64.encodeToString(gs2Header.getBytes(StandardCharsets.UTF_8));
        if (!attributes[0].substring(2).equals(expectedBinding)) {
            throw invalid("client-final channel binding " + attributes[0] + " does not repeat the gs2 header");
        }
        // Apache 3.7.2 checks that the nonce ends with the server-first one (endsWith, not equals): librdkafka before
        // 2.6.1 sends its client nonce twice (r=cnonce+cnonce+snonce), and Apache stays compatible with it. Ending with
        // this exchange's fresh server nonce is what keeps a replayed client-final out.
        if (!attributes[1].substring(2).endsWith(nonce)) {
            throw invalid("Invalid client nonce in the final client message.");
        }
        byte[] proof;
        try {
            proof = B64_DECODER.decode(message.substring(proofAt + 3));
        } catch (IllegalArgumentException e) {
            throw invalid("client proof is not base64");
        }
        byte[] authMessage = (clientFirstBare + "," + serverFirst + "," + withoutProof).getBytes(StandardCharsets.UTF_8);
        byte[] storedKey = credential.storedKey();
        byte[] clientSignature = ScramCredential.hmac(scram, storedKey, authMessage);
        if (proof.length != clientSignature.length) {
            throw invalid("client proof of " + proof.length + " bytes for " + user);
        }
        byte[] clientKey = new byte[proof.length];
        for (int i = 0; i < proof.length; i++) {
            clientKey[i] = (byte) (proof[i] ^ clientSignature[i]);
        }
        if (!MessageDigest.isEqual(ScramCredential.hash(scram, clientKey), storedKey)) {
            throw invalid("wrong proof (password) for user " + user);
        }
        byte[] serverSignature = ScramCredential.hmac(scram, credential.serverKey(), authMessage);
        credential = null;
        state = State.COMPLETE;
        return ("v=" + B64.encodeToString(serverSignature)).getBytes(StandardCharsets.UTF_8);
    }

    /** RFC 5802 saslname: ',' and '=' travel as =2C and =3D, and no other '=' may appear. */
    private String saslName(String encoded) {
        StringBuilder name = new StringBuilder(encoded.length());
        for (int i = 0; i < encoded.length(); i++) {
            char c = encoded.charAt(i);
            if (c != '=') {
                name.append(c);
            } else if (encoded.startsWith("2C", i + 1)) {
                name.append(',');
                i += 2;
            } else if (encoded.startsWith("3D", i + 1)) {
                name.append('=');
                i += 2;
            } else {
                throw invalid("malformed saslname " + printable(encoded));
            }
        }
        return name.toString();
    }

    private SaslAuthenticationFailure invalid(String reason) {
        return SaslAuthenticationFailure.invalidCredentials(mechanism, reason);
    }

    /** A client's bytes, cut short for a log line. */
    private static String printable(String message) {
        return message.length() <= 64 ? message : message.substring(0, 64) + "...";
    }

    @Override
    public boolean isComplete() {
        return state == State.COMPLETE;
    }

    @Override
    public String authenticatedUser() {
        if (state != State.COMPLETE) {
            throw new IllegalStateException("the " + mechanism.mechanismName() + " exchange is " + state);
        }
        return user;
    }
}
