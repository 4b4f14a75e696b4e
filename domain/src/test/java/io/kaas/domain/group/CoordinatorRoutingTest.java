package io.kaas.domain.group;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import org.junit.jupiter.api.Test;

class CoordinatorRoutingTest {

    @Test
    void fnv1aMatchesTheReferenceVectors() {
        // From the FNV reference test suite (32-bit FNV-1a).
        assertThat(CoordinatorRouting.fnv1a32("")).isEqualTo(0x811c9dc5);
        assertThat(CoordinatorRouting.fnv1a32("a")).isEqualTo(0xe40c292c);
        assertThat(CoordinatorRouting.fnv1a32("foobar")).isEqualTo(0xbf9cf968);
    }

    @Test
    void hashesIntoTheRegisteredSetWhateverItsOrder() {
        int hash = CoordinatorRouting.fnv1a32("orders");
        int expected = List.of(1, 2, 3).get(Integer.remainderUnsigned(hash, 3));
        assertThat(CoordinatorRouting.coordinatorFor("orders", List.of(3, 1, 2), Set.of(1, 2, 3)))
                .isEqualTo(OptionalInt.of(expected));
        assertThat(CoordinatorRouting.coordinatorFor("orders", List.of(2, 3, 1), Set.of(1, 2, 3)))
                .isEqualTo(OptionalInt.of(expected));
    }

    @Test
    void aSingleBrokerCoordinatesEverything() {
        for (String key : List.of("", "a", "group-1", "ünïcødé", "x".repeat(1000))) {
            assertThat(CoordinatorRouting.coordinatorFor(key, List.of(7), Set.of(7))).isEqualTo(OptionalInt.of(7));
        }
    }

    @Test
    void aDeadBrokerMovesOnlyItsOwnKeysAndTheFallbackIsDeterministic() {
        List<Integer> registered = List.of(0, 1, 2);
        Map<String, Integer> before = new HashMap<>();
        for (int i = 0; i < 300; i++) {
            before.put("group-" + i, CoordinatorRouting.coordinatorFor("group-" + i, registered, Set.of(0, 1, 2)).getAsInt());
        }
        int moved = 0;
        for (Map.Entry<String, Integer> e : before.entrySet()) {
            OptionalInt after = CoordinatorRouting.coordinatorFor(e.getKey(), registered, Set.of(0, 2));
            assertThat(after).isEqualTo(CoordinatorRouting.coordinatorFor(e.getKey(), registered, Set.of(2, 0)));
            assertThat(after.getAsInt()).isIn(0, 2);
            if (e.getValue() != 1) {
                assertThat(after.getAsInt()).as(e.getKey()).isEqualTo(e.getValue());
            } else {
                moved++;
            }
        }
        assertThat(moved).isBetween(60, 140); // about a third hashed to broker 1
    }

    @Test
    void noAliveBrokerMeansNoCoordinator() {
        assertThat(CoordinatorRouting.coordinatorFor("g", List.of(0, 1), Set.of())).isEmpty();
        assertThat(CoordinatorRouting.coordinatorFor("g", List.of(), Set.of())).isEmpty();
    }
}
