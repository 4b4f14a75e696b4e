package io.kaas.domain.group;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.OptionalInt;
import java.util.Set;

/**
 * Which broker coordinates a group (or a transactional id): a pure function of the key, the
 * registered broker set and the alive subset, so every broker computes the same answer without
 * asking anyone.
 *
 * <p>The divisor is the whole registered set, dead and draining brokers included: a broker going
 * down then moves only the keys that hashed to it, instead of rehashing almost every key as a
 * divisor of "alive brokers" would. Keys whose preferred broker is down fall back, deterministically,
 * into the alive subset.
 */
public final class CoordinatorRouting {
    private static final int FNV_OFFSET_BASIS = 0x811c9dc5;
    private static final int FNV_PRIME = 0x01000193;

    private CoordinatorRouting() {
    }

    /** FNV-1a, 32 bits, over the key's UTF-8 bytes. */
    public static int fnv1a32(String key) {
        int hash = FNV_OFFSET_BASIS;
        for (byte b : key.getBytes(StandardCharsets.UTF_8)) {
            hash ^= b & 0xff;
            hash *= FNV_PRIME;
        }
        return hash;
    }

    /**
     * The coordinator of {@code key}.
     *
     * @param registered every broker id the cluster knows, alive or not (order does not matter)
     * @param alive      the brokers that can serve now
     * @return the preferred broker if alive, else a deterministic pick among the alive ones;
     *         empty when no registered broker is alive
     */
    public static OptionalInt coordinatorFor(String key, List<Integer> registered, Set<Integer> alive) {
        if (registered.isEmpty()) {
            return OptionalInt.empty();
        }
        int hash = fnv1a32(key);
        List<Integer> sorted = registered.stream().distinct().sorted().toList();
        int preferred = sorted.get(Integer.remainderUnsigned(hash, sorted.size()));
        if (alive.contains(preferred)) {
            return OptionalInt.of(preferred);
        }
        List<Integer> aliveSorted = sorted.stream().filter(alive::contains).toList();
        if (aliveSorted.isEmpty()) {
            return OptionalInt.empty();
        }
        return OptionalInt.of(aliveSorted.get(Integer.remainderUnsigned(hash, aliveSorted.size())));
    }
}
