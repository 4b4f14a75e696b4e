package io.kaas.adapter.wire.handler;

import io.kaas.domain.security.ScramMechanism;
import java.util.Optional;

/** SCRAM mechanisms as the KIP-554 APIs number them (Apache's admin ScramMechanism: 1 SHA-256, 2 SHA-512). */
final class ScramMechanisms {
    private static final byte SHA_256 = 1;
    private static final byte SHA_512 = 2;

    private ScramMechanisms() {
    }

    /** Empty for 0 (UNKNOWN) and any number Apache does not define. */
    static Optional<ScramMechanism> fromWire(byte type) {
        return switch (type) {
            case SHA_256 -> Optional.of(ScramMechanism.SCRAM_SHA_256);
            case SHA_512 -> Optional.of(ScramMechanism.SCRAM_SHA_512);
            default -> Optional.empty();
        };
    }

    static byte toWire(ScramMechanism mechanism) {
        return mechanism == ScramMechanism.SCRAM_SHA_256 ? SHA_256 : SHA_512;
    }
}
