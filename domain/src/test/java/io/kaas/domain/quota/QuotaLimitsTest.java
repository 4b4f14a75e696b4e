package io.kaas.domain.quota;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.domain.quota.QuotaEntity.Name;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class QuotaLimitsTest {
    private static final Name ALICE = Name.of("alice");
    private static final Name APP = Name.of("app");

    @Test
    void noQuotaMeansUnlimited() {
        QuotaLimits limits = QuotaLimits.NONE;

        assertThat(limits.isEmpty()).isTrue();
        assertThat(limits.bound(limits.sensorKey("alice", "app"))).isEqualTo(QuotaLimits.UNLIMITED);
    }

    @Test
    void aUserQuotaAloneIsSharedByAllTheUsersClients() {
        QuotaLimits limits = QuotaLimits.of(Map.of(QuotaEntity.user(ALICE), 100.0));

        assertThat(limits.sensorKey("alice", "app")).isEqualTo(new SensorKey("alice", ""));
        assertThat(limits.bound(limits.sensorKey("alice", "other"))).isEqualTo(100.0);
        assertThat(limits.bound(limits.sensorKey("bob", "app"))).isEqualTo(QuotaLimits.UNLIMITED);
    }

    @Test
    void aClientIdQuotaAloneIsSharedByAllUsersOfTheClientId() {
        QuotaLimits limits = QuotaLimits.of(Map.of(QuotaEntity.clientId(APP), 100.0,
                QuotaEntity.clientId(Name.DEFAULT), 10.0));

        assertThat(limits.sensorKey("alice", "app")).isEqualTo(new SensorKey("", "app"));
        assertThat(limits.bound(limits.sensorKey("bob", "app"))).isEqualTo(100.0);
        assertThat(limits.bound(limits.sensorKey("bob", "other"))).isEqualTo(10.0);
    }

    /** Apache's order: user+client, user+default client, user, default user+client, ..., client, default client. */
    @Test
    void theMostSpecificEntityWins() {
        Map<QuotaEntity, Double> bounds = new LinkedHashMap<>();
        bounds.put(QuotaEntity.clientId(Name.DEFAULT), 8.0);
        bounds.put(QuotaEntity.clientId(APP), 7.0);
        bounds.put(QuotaEntity.user(Name.DEFAULT), 6.0);
        bounds.put(QuotaEntity.userAndClientId(Name.DEFAULT, Name.DEFAULT), 5.0);
        bounds.put(QuotaEntity.userAndClientId(Name.DEFAULT, APP), 4.0);
        bounds.put(QuotaEntity.user(ALICE), 3.0);
        bounds.put(QuotaEntity.userAndClientId(ALICE, Name.DEFAULT), 2.0);
        bounds.put(QuotaEntity.userAndClientId(ALICE, APP), 1.0);
        double[] expected = {1, 2, 3, 4, 5, 6, 7, 8};
        SensorKey[] keys = {new SensorKey("alice", "app"), new SensorKey("alice", "app"), new SensorKey("alice", ""),
            new SensorKey("alice", "app"), new SensorKey("alice", "app"), new SensorKey("alice", ""),
            new SensorKey("", "app"), new SensorKey("", "app")};
        for (int i = 0; i < expected.length; i++) {
            QuotaLimits limits = QuotaLimits.of(bounds);
            SensorKey key = limits.sensorKey("alice", "app");
            assertThat(key).as("with the %d most general entities", bounds.size()).isEqualTo(keys[i]);
            assertThat(limits.bound(key)).as("with the %d most general entities", bounds.size()).isEqualTo(expected[i]);
            bounds.remove(bounds.keySet().stream().reduce((a, b) -> b).orElseThrow());
        }
    }

    @Test
    void aUserWithoutQuotaAmongMixedLevelsFallsBackToItsClientId() {
        QuotaLimits limits = QuotaLimits.of(Map.of(QuotaEntity.user(ALICE), 3.0, QuotaEntity.clientId(APP), 7.0));

        assertThat(limits.sensorKey("bob", "app")).isEqualTo(new SensorKey("", "app"));
        assertThat(limits.bound(limits.sensorKey("bob", "app"))).isEqualTo(7.0);
        assertThat(limits.bound(limits.sensorKey("alice", "app"))).isEqualTo(3.0);
    }

    @Test
    void maxValueInWindowIsTheBoundOverAllButTheCurrentSample() {
        assertThat(QuotaWindow.DEFAULT.maxValueInWindow(1_000)).isEqualTo(10_000.0);
        assertThat(new QuotaWindow(5, 500).maxValueInWindow(1_000)).isEqualTo(2_000.0);
    }
}
