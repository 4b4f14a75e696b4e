package io.kaas.bootstrap;

import java.math.BigInteger;
import java.security.SecureRandom;
import java.util.function.Supplier;

/**
 * The SCRAM server nonces, as Apache's ScramFormatter draws them: 130 bits from a SecureRandom in
 * base 36, unpredictable and, as RFC 5802 requires, printable ASCII without commas.
 */
final class ScramNonces implements Supplier<String> {
    private static final int BITS = 130;

    private final SecureRandom random = new SecureRandom();

    @Override
    public String get() {
        return new BigInteger(BITS, random).toString(Character.MAX_RADIX);
    }
}
