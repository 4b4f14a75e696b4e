package io.kaas.domain.fetch;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.function.IntSupplier;
import org.junit.jupiter.api.Test;

class FetchSessionCacheTest {
    private static final long EVICTION_MS = FetchSessionCache.DEFAULT_EVICTION_MS;

    private int nextId = 1;
    private final IntSupplier ids = () -> nextId++;

    private static int open(FetchSessionCache<String> cache, long nowMs, int size) {
        return cache.open(nowMs, true, size, session -> {
            for (int p = 0; p < size; p++) {
                session.add(new CachedPartition<>(SessionKey.byName("t", p), "offset 0", 0, 0, 0));
            }
        });
    }

    @Test
    void aFullCacheOpensNoSessionWhileItsSessionsAreYoungAndInUse() {
        FetchSessionCache<String> cache = new FetchSessionCache<>(2, EVICTION_MS, ids);
        assertThat(open(cache, 0, 5)).isEqualTo(1);
        assertThat(open(cache, 0, 5)).isEqualTo(2);

        boolean[] filled = {false};
        int third = cache.open(1_000, true, 500, session -> filled[0] = true);

        assertThat(third).as("a bigger session does not evict young ones").isEqualTo(FetchSessionEpoch.NO_SESSION);
        assertThat(filled[0]).as("no partitions cached for a session not opened").isFalse();
        assertThat(cache.size()).isEqualTo(2);
        assertThat(cache.partitions()).isEqualTo(10);
        assertThat(cache.evictions()).isZero();
    }

    @Test
    void aSessionUnusedForLongerThanTheEvictionTimeMakesRoomForAnyNewOneLeastRecentlyUsedFirst() {
        FetchSessionCache<String> cache = new FetchSessionCache<>(2, EVICTION_MS, ids);
        int a = open(cache, 0, 5);
        int b = open(cache, 10, 5);
        cache.touch(cache.get(a).orElseThrow(), 100_000); // a is used again; b is not

        assertThat(open(cache, 10 + EVICTION_MS, 1)).as("b unused for exactly the eviction time is not stale yet")
                .isEqualTo(FetchSessionEpoch.NO_SESSION);
        int c = open(cache, 10 + EVICTION_MS + 1, 1);

        assertThat(c).isNotEqualTo(FetchSessionEpoch.NO_SESSION);
        assertThat(cache.get(b)).as("the least recently used, stale session went").isEmpty();
        assertThat(cache.get(a)).isPresent();
        assertThat(cache.evictions()).isEqualTo(1);
        assertThat(cache.partitions()).isEqualTo(6);
    }

    @Test
    void aBiggerSessionEvictsTheSmallestSessionOlderThanTheEvictionTime() {
        FetchSessionCache<String> cache = new FetchSessionCache<>(3, EVICTION_MS, ids);
        int small = open(cache, 0, 3);
        int big = open(cache, 0, 5);
        long old = EVICTION_MS + 1;
        // Both stay in use; once older than the eviction time, their next use files them as evictable.
        cache.touch(cache.get(small).orElseThrow(), old);
        cache.touch(cache.get(big).orElseThrow(), old);
        int young = open(cache, old, 2);

        assertThat(open(cache, old + 1, 3)).as("not bigger than the smallest evictable one")
                .isEqualTo(FetchSessionEpoch.NO_SESSION);
        int bigger = open(cache, old + 1, 4);

        assertThat(bigger).isNotEqualTo(FetchSessionEpoch.NO_SESSION);
        assertThat(cache.get(small)).as("the smallest old session made room").isEmpty();
        assertThat(cache.get(young)).as("a young session is never evicted for size, however small").isPresent();
        assertThat(cache.get(big)).isPresent();

        assertThat(open(cache, old + 2, 4)).as("the only old session left (5) is bigger")
                .isEqualTo(FetchSessionEpoch.NO_SESSION);
        assertThat(open(cache, old + 2, 6)).isNotEqualTo(FetchSessionEpoch.NO_SESSION);
        assertThat(cache.get(big)).isEmpty();
        assertThat(cache.evictions()).isEqualTo(2);
    }

    @Test
    void anOldSessionIsEvictableForSizeOnlyOnceUsedAfterItsEvictionTime() {
        FetchSessionCache<String> cache = new FetchSessionCache<>(1, EVICTION_MS, ids);
        int a = open(cache, 0, 1);
        cache.touch(cache.get(a).orElseThrow(), EVICTION_MS); // in use, but not yet older than the eviction time

        assertThat(open(cache, EVICTION_MS + 1, 100)).isEqualTo(FetchSessionEpoch.NO_SESSION);
        cache.touch(cache.get(a).orElseThrow(), EVICTION_MS + 2);
        assertThat(open(cache, EVICTION_MS + 3, 100)).isNotEqualTo(FetchSessionEpoch.NO_SESSION);
        assertThat(cache.get(a)).isEmpty();
    }

    @Test
    void zeroSlotsOpenNoSession() {
        FetchSessionCache<String> cache = new FetchSessionCache<>(0, EVICTION_MS, ids);

        assertThat(open(cache, 0, 1)).isEqualTo(FetchSessionEpoch.NO_SESSION);
    }

    @Test
    void sessionIdsArePositiveUniqueAndNeverTheNoSessionId() {
        Deque<Integer> random = new ArrayDeque<>(List.of(0, 7, -1, 7, 9));
        FetchSessionCache<String> cache = new FetchSessionCache<>(10, EVICTION_MS, random::pop);

        assertThat(open(cache, 0, 1)).isEqualTo(7);
        assertThat(open(cache, 0, 1)).as("-1 masked to positive").isEqualTo(Integer.MAX_VALUE);
        assertThat(open(cache, 0, 1)).as("7 is taken").isEqualTo(9);
    }

    @Test
    void removingASessionFreesItsSlotAndItsPartitions() {
        FetchSessionCache<String> cache = new FetchSessionCache<>(1, EVICTION_MS, ids);
        int a = open(cache, 0, 4);

        assertThat(cache.remove(a)).isTrue();
        assertThat(cache.remove(a)).isFalse();
        assertThat(cache.partitions()).isZero();
        assertThat(open(cache, 1, 2)).isNotEqualTo(FetchSessionEpoch.NO_SESSION);
        assertThat(cache.evictions()).isZero();
    }
}
