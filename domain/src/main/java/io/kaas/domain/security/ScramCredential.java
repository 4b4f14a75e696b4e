package io.kaas.domain.security;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;
import javax.crypto.Mac;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * What a broker stores for a SCRAM user (RFC 5802 section 3): never the password, only the salt, the
 * iteration count, {@code StoredKey = H(HMAC(SaltedPassword, "Client Key"))} and
 * {@code ServerKey = HMAC(SaltedPassword, "Server Key")}. The same values Apache keeps in ZooKeeper or
 * KRaft, so a credential derived by {@code kafka-configs --add-config SCRAM-SHA-512=[...]} and one
 * derived here verify the same password.
 */
public record ScramCredential(byte[] salt, byte[] storedKey, byte[] serverKey, int iterations) {

    public ScramCredential {
        salt = salt.clone();
        storedKey = storedKey.clone();
        serverKey = serverKey.clone();
    }

    @Override
    public byte[] salt() {
        return salt.clone();
    }

    @Override
    public byte[] storedKey() {
        return storedKey.clone();
    }

    @Override
    public byte[] serverKey() {
        return serverKey.clone();
    }

    /**
     * Derives the credential for {@code password}. The salt comes from the caller (a fresh random one
     * per credential, drawn outside the deterministic core).
     */
    public static ScramCredential derive(ScramMechanism mechanism, String password, byte[] salt, int iterations) {
        return fromSaltedPassword(mechanism, saltedPassword(mechanism, password, salt, iterations), salt, iterations);
    }

    /**
     * The credential for a SaltedPassword computed elsewhere: AlterUserScramCredentials (KIP-554)
     * carries salt, iterations and SaltedPassword, never the password.
     */
    public static ScramCredential fromSaltedPassword(ScramMechanism mechanism, byte[] saltedPassword, byte[] salt,
                                                     int iterations) {
        byte[] clientKey = hmac(mechanism, saltedPassword, "Client Key".getBytes(StandardCharsets.US_ASCII));
        byte[] serverKey = hmac(mechanism, saltedPassword, "Server Key".getBytes(StandardCharsets.US_ASCII));
        return new ScramCredential(salt, hash(mechanism, clientKey), serverKey, iterations);
    }

    /** {@code Hi(Normalize(password), salt, i)}: PBKDF2 with the mechanism's HMAC, one hash length long. */
    public static byte[] saltedPassword(ScramMechanism mechanism, String password, byte[] salt, int iterations) {
        PBEKeySpec spec = new PBEKeySpec(password.toCharArray(), salt, iterations, mechanism.keyBits());
        try {
            return SecretKeyFactory.getInstance(mechanism.pbkdf2Algorithm()).generateSecret(spec).getEncoded();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(mechanism.pbkdf2Algorithm() + " is part of every Java 17 runtime", e);
        } finally {
            spec.clearPassword();
        }
    }

    /** Whether {@code password} derives this credential (SASL/PLAIN checks a password this way); constant time. */
    public boolean matches(ScramMechanism mechanism, String password) {
        ScramCredential candidate = derive(mechanism, password, salt, iterations);
        return MessageDigest.isEqual(candidate.storedKey, storedKey);
    }

    public static byte[] hmac(ScramMechanism mechanism, byte[] key, byte[] data) {
        try {
            Mac mac = Mac.getInstance(mechanism.macAlgorithm());
            mac.init(new SecretKeySpec(key, mechanism.macAlgorithm()));
            return mac.doFinal(data);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(mechanism.macAlgorithm() + " is part of every Java 17 runtime", e);
        }
    }

    public static byte[] hash(ScramMechanism mechanism, byte[] data) {
        try {
            return MessageDigest.getInstance(mechanism.hashAlgorithm()).digest(data);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(mechanism.hashAlgorithm() + " is part of every Java 17 runtime", e);
        }
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ScramCredential c && iterations == c.iterations && Arrays.equals(salt, c.salt)
                && Arrays.equals(storedKey, c.storedKey) && Arrays.equals(serverKey, c.serverKey);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(storedKey) + iterations;
    }

    /** Never prints key material. */
    @Override
    public String toString() {
        return "ScramCredential[iterations=" + iterations + "]";
    }
}
