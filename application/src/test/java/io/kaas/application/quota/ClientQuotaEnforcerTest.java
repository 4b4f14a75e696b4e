package io.kaas.application.quota;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.application.fake.ManualClock;
import io.kaas.application.metrics.BrokerMetrics;
import io.kaas.domain.quota.QuotaType;
import io.kaas.domain.quota.QuotaWindow;
import io.kaas.domain.security.Credentials;
import io.kaas.domain.security.StoredUser;
import io.kaas.domain.security.UserQuotas;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class ClientQuotaEnforcerTest {
    private final ManualClock clock = new ManualClock();
    private final AtomicReference<Credentials> credentials = new AtomicReference<>(Credentials.EMPTY);
    private final BrokerMetrics metrics = BrokerMetrics.unobserved();
    private final ClientQuotaEnforcer quotas = new ClientQuotaEnforcer(new ConfiguredQuotas(credentials::get),
            QuotaWindow.DEFAULT, clock, metrics);

    private void quotas(String user, UserQuotas values) {
        credentials.set(credentials.get().with(new StoredUser(user, Map.of(), values)));
    }

    @Test
    void withoutQuotasNothingIsThrottledOrCapped() {
        assertThat(quotas.produce("alice", "app", 1L << 40)).isZero();
        assertThat(quotas.fetch("alice", "app", 1L << 40)).isZero();
        assertThat(quotas.fetchMaxBytes("alice", "app")).isEqualTo(Integer.MAX_VALUE);
    }

    @Test
    void aUsersProduceQuotaThrottlesItsClientsTogetherAndNoOneElse() {
        quotas("alice", new UserQuotas(1_000L, null, null, null));

        assertThat(quotas.produce("alice", "app-1", 6_000)).isZero();
        // 11 000 B over the 10 s minimum window: 1100 B/s, 10 % over, a second to make up
        assertThat(quotas.produce("alice", "app-2", 5_000)).isEqualTo(1_000);
        assertThat(quotas.produce("bob", "app-1", 1_000_000)).isZero();
        assertThat(metrics.throttleTime(QuotaType.PRODUCE).snapshot().count()).isEqualTo(1);
    }

    @Test
    void aThrottledFetchIsTakenBackAndTheFetchSizeIsCappedAtTheWindowsWorth() {
        quotas("alice", new UserQuotas(null, 1_000L, null, null));

        assertThat(quotas.fetchMaxBytes("alice", "app")).isEqualTo(10_000);
        assertThat(quotas.fetch("alice", "app", 9_000)).isZero();
        assertThat(quotas.fetch("alice", "app", 5_000)).as("over: answered empty").isPositive();
        assertThat(quotas.fetch("alice", "app", 1_000)).as("the empty answer was not charged").isZero();
        assertThat(metrics.throttleTime(QuotaType.FETCH).snapshot().count()).isEqualTo(1);
    }

    @Test
    void aChangedQuotaAppliesToTheSensorInUse() {
        quotas("alice", new UserQuotas(1_000L, null, null, null));
        assertThat(quotas.produce("alice", "app", 11_000)).isPositive();

        quotas("alice", new UserQuotas(100_000L, null, null, null));
        assertThat(quotas.produce("alice", "app", 1_000)).isZero();

        credentials.set(Credentials.EMPTY);
        assertThat(quotas.produce("alice", "app", 1L << 40)).as("removed").isZero();
    }

    @Test
    void theRequestQuotaChargesHandlerTimeAsAPercentageOfOneThread() {
        quotas("alice", new UserQuotas(null, null, 10.0, null));

        // 0.9 s of handler time over the 10 s window is 9 %
        assertThat(quotas.request("alice", "app", 900_000_000L)).isZero();
        // 1.1 s: 11 %, (11 - 10) / 10 of the window
        assertThat(quotas.request("alice", "app", 200_000_000L)).isEqualTo(1_000);
    }

    @Test
    void usageAgesOutOfTheWindow() {
        quotas("alice", new UserQuotas(1_000L, null, null, null));
        assertThat(quotas.produce("alice", "app", 20_000)).isPositive();

        clock.advance(11_000);

        assertThat(quotas.produce("alice", "app", 5_000)).isZero();
    }
}
