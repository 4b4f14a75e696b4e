package io.kaas.application.quota;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.application.fake.ManualClock;
import io.kaas.application.metrics.BrokerMetrics;
import io.kaas.application.port.in.MutationQuota;
import io.kaas.domain.quota.QuotaEntity;
import io.kaas.domain.quota.QuotaEntity.Name;
import io.kaas.domain.quota.QuotaType;
import io.kaas.domain.quota.QuotaWindow;
import io.kaas.domain.quota.StoredClientQuotas;
import io.kaas.domain.security.Credentials;
import io.kaas.domain.security.StoredUser;
import io.kaas.domain.security.UserQuotas;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class ClientQuotaEnforcerTest {
    private final ManualClock clock = new ManualClock();
    private final AtomicReference<Credentials> credentials = new AtomicReference<>(Credentials.EMPTY);
    private final AtomicReference<StoredClientQuotas> stored = new AtomicReference<>(StoredClientQuotas.EMPTY);
    private final BrokerMetrics metrics = BrokerMetrics.unobserved();
    private final ClientQuotaEnforcer quotas = new ClientQuotaEnforcer(new ConfiguredQuotas(credentials::get, stored::get),
            QuotaWindow.DEFAULT, QuotaWindow.DEFAULT, clock, metrics);

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
    void storedClientIdAndDefaultQuotasApplyBelowAUsersOwn() {
        stored.set(new StoredClientQuotas(Map.of(
                QuotaEntity.clientId(Name.of("app")), Map.of(UserQuotas.PRODUCER_BYTE_RATE, 1_000.0),
                QuotaEntity.user(Name.DEFAULT), Map.of(UserQuotas.PRODUCER_BYTE_RATE, 2_000.0))));
        quotas("alice", new UserQuotas(1_000_000L, null, null, null));

        // every user falls under the default user's 2000 B/s before the client id's quota is looked at
        assertThat(quotas.produce("bob", "app", 21_000)).as("bob under <default>").isEqualTo(500);
        assertThat(quotas.produce("alice", "app", 500_000)).as("alice's own quota").isZero();

        stored.set(new StoredClientQuotas(Map.of(
                QuotaEntity.clientId(Name.of("app")), Map.of(UserQuotas.PRODUCER_BYTE_RATE, 1_000.0))));
        credentials.set(Credentials.EMPTY);
        assertThat(quotas.produce("bob", "app", 6_000)).isZero();
        assertThat(quotas.produce("carol", "app", 5_000)).as("one sensor per client id, whoever the user")
                .isEqualTo(1_000);
        assertThat(quotas.produce("carol", "other", 1L << 30)).as("no quota for another client id").isZero();
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

    @Test
    void aStrictMutationQuotaAdmitsABurstIntoDebtThenRefusesUntilTheDebtIsPaid() {
        quotas("alice", new UserQuotas(null, null, null, 2.0));
        // 2 partitions/s over 11 one-second samples: the bucket starts with 22
        MutationQuota first = quotas.controllerMutation("alice", "admin-1", true);
        assertThat(first.tryCharge(20)).isTrue();
        assertThat(first.tryCharge(6)).as("credits left (2): admitted into a debt of 4").isTrue();
        assertThat(first.throttleTimeMs()).as("a strict quota throttles only a refusal").isZero();
        assertThat(first.tryCharge(1)).as("in debt: refused, nothing charged").isFalse();
        assertThat(first.throttleTimeMs()).as("4 partitions at 2/s").isEqualTo(2_000);

        MutationQuota second = quotas.controllerMutation("alice", "admin-2", true);
        clock.advance(500);
        assertThat(first.throttleTimeMs()).as("less the time since").isEqualTo(1_500);
        assertThat(second.tryCharge(1)).as("the user's clients share the bucket").isFalse();
        assertThat(second.throttleTimeMs()).isEqualTo(1_500);
        assertThat(quotas.controllerMutation("bob", "admin-1", true).tryCharge(1_000)).as("no quota").isTrue();

        clock.advance(1_500);
        assertThat(quotas.controllerMutation("alice", "admin-1", true).tryCharge(1)).as("the debt is paid").isTrue();
        assertThat(metrics.throttleTime(QuotaType.CONTROLLER_MUTATION).snapshot().count()).isEqualTo(2);
    }

    @Test
    void aPermissiveMutationQuotaAdmitsEverythingAndThrottlesOnceInDebt() {
        stored.set(new StoredClientQuotas(Map.of(QuotaEntity.clientId(Name.of("old-admin")),
                Map.of(UserQuotas.CONTROLLER_MUTATION_RATE, 1.0))));

        MutationQuota quota = quotas.controllerMutation("alice", "old-admin", false);
        assertThat(quota.tryCharge(11)).isTrue();
        assertThat(quota.throttleTimeMs()).as("exactly the burst: no debt").isZero();
        assertThat(quota.tryCharge(3)).isTrue();
        assertThat(quota.throttleTimeMs()).as("3 partitions at 1/s").isEqualTo(3_000);
        assertThat(quota.tryCharge(2)).as("never refused").isTrue();
        assertThat(quota.throttleTimeMs()).isEqualTo(5_000);
    }

    @Test
    void connectionsOverAnIpsRateAreRefusedAndNotCountedAndTheDefaultIpAppliesToOthers() {
        stored.set(new StoredClientQuotas(Map.of(), Map.of(
                Name.of("::1"), Map.of("connection_creation_rate", 10.0),
                Name.DEFAULT, Map.of("connection_creation_rate", 1.0))));

        // 10 connections/s over the 10 s minimum window: 100 are within the rate
        for (int i = 0; i < 100; i++) {
            assertThat(quotas.connectionCreation("0:0:0:0:0:0:0:1")).as("connection %d", i).isZero();
        }
        assertThat(quotas.connectionCreation("0:0:0:0:0:0:0:1")).as("the 101st: 1 %% over").isEqualTo(100);
        assertThat(quotas.connectionCreation("0:0:0:0:0:0:0:1")).as("the refused one was not counted")
                .isEqualTo(100);
        for (int i = 0; i < 10; i++) {
            assertThat(quotas.connectionCreation("10.1.2.3")).as("within the default's 1/s").isZero();
        }
        assertThat(quotas.connectionCreation("10.1.2.3")).as("10 %% over, a second's throttle at most")
                .isEqualTo(1_000);
        assertThat(metrics.throttleTime(QuotaType.CONNECTION_CREATION).snapshot().count()).isEqualTo(3);
    }
}
