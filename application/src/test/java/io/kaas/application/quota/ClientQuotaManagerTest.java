package io.kaas.application.quota;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.application.fake.ManualClock;
import io.kaas.domain.quota.QuotaEntity;
import io.kaas.domain.quota.QuotaEntity.Name;
import io.kaas.domain.quota.QuotaLimits;
import io.kaas.domain.quota.QuotaType;
import io.kaas.domain.quota.QuotaWindow;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ClientQuotaManagerTest {
    private final ManualClock clock = new ManualClock();

    private ClientQuotaManager manager(QuotaLimits limits) {
        return new ClientQuotaManager(QuotaType.PRODUCE, () -> limits, QuotaWindow.DEFAULT, clock);
    }

    @Test
    void aClientIdQuotaIsSharedByEveryUserOfTheClientId() {
        ClientQuotaManager manager = manager(QuotaLimits.of(Map.of(QuotaEntity.clientId(Name.of("app")), 1_000.0)));

        assertThat(manager.recordAndThrottleMs("alice", "app", 10_000)).isZero();
        assertThat(manager.recordAndThrottleMs("bob", "app", 1_000)).as("bob adds to alice's usage").isPositive();
        assertThat(manager.recordAndThrottleMs("bob", "other", 1_000_000)).as("no quota").isZero();
    }

    @Test
    void aUserClientIdQuotaIsKeptApartFromTheUsersOtherClients() {
        ClientQuotaManager manager = manager(QuotaLimits.of(Map.of(
                QuotaEntity.userAndClientId(Name.of("alice"), Name.DEFAULT), 1_000.0)));

        assertThat(manager.recordAndThrottleMs("alice", "app-1", 10_000)).isZero();
        assertThat(manager.recordAndThrottleMs("alice", "app-2", 10_000)).as("its own sensor").isZero();
        assertThat(manager.recordAndThrottleMs("alice", "app-1", 1_000)).isPositive();
    }

    @Test
    void sensorsOfClientsIdleForAnHourAreDropped() {
        ClientQuotaManager manager = manager(QuotaLimits.of(Map.of(QuotaEntity.clientId(Name.DEFAULT), 1_000.0)));
        manager.recordAndThrottleMs("alice", "short-lived", 10);
        manager.recordAndThrottleMs("alice", "busy", 10);

        clock.advance(ClientQuotaManager.INACTIVE_SENSOR_MS - 60_000);
        manager.recordAndThrottleMs("alice", "busy", 10);
        clock.advance(60_000);
        manager.recordAndThrottleMs("alice", "busy", 10);

        assertThat(manager.sensorCount()).isEqualTo(1);
    }

    @Test
    void withoutAQuotaNothingIsRecorded() {
        ClientQuotaManager manager = manager(QuotaLimits.NONE);

        assertThat(manager.recordAndThrottleMs("alice", "app", 1e12)).isZero();
        assertThat(manager.sensorCount()).isZero();
        assertThat(manager.maxValueInWindow("alice", "app")).isEqualTo(Integer.MAX_VALUE);
    }
}
