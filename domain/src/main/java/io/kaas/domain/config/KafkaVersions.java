package io.kaas.domain.config;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

/**
 * The Kafka release and inter-broker protocol version names Apache Kafka 3.7 recognises, for
 * validating the deprecated {@code message.format.version}: every release up to 3.7 (and 3.8-IV0,
 * which 3.7's own table already lists) with its {@code -IVn} sub-versions.
 */
final class KafkaVersions {
    private static final Set<String> KNOWN = new HashSet<>();

    static {
        for (String plain : new String[] {"0.8.0", "0.8.1", "0.8.2", "0.9.0"}) {
            KNOWN.add(plain);
        }
        // release, number of IV sub-versions
        Object[][] releases = {
            {"0.10.0", 2}, {"0.10.1", 3}, {"0.10.2", 1}, {"0.11.0", 3}, {"1.0", 1}, {"1.1", 1},
            {"2.0", 2}, {"2.1", 3}, {"2.2", 2}, {"2.3", 2}, {"2.4", 2}, {"2.5", 1}, {"2.6", 1}, {"2.7", 3},
            {"2.8", 2}, {"3.0", 2}, {"3.1", 1}, {"3.2", 1}, {"3.3", 4}, {"3.4", 1}, {"3.5", 3}, {"3.6", 3},
            {"3.7", 5}, {"3.8", 1},
        };
        for (Object[] r : releases) {
            String release = (String) r[0];
            KNOWN.add(release);
            for (int iv = 0; iv < (int) r[1]; iv++) {
                KNOWN.add(release + "-IV" + iv);
            }
        }
    }

    private KafkaVersions() {
    }

    /** Whether Apache's {@code MetadataVersion.fromVersionString} would accept {@code version}. */
    static boolean isKnown(String version) {
        String[] parts = version.split("\\."); // like Apache: trailing empty parts dropped
        int significant = version.startsWith("0.") ? 3 : 2;
        String key = parts.length <= significant ? version : String.join(".", Arrays.copyOf(parts, significant));
        return KNOWN.contains(key);
    }
}
