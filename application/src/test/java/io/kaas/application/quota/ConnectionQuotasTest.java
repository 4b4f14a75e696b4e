package io.kaas.application.quota;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.application.fake.ManualClock;
import io.kaas.application.port.in.ConnectionAdmission.Attempt;
import io.kaas.application.port.in.ConnectionAdmission.Decision;
import io.kaas.application.port.in.ConnectionAdmission.Verdict;
import io.kaas.domain.config.BrokerConfigs;
import io.kaas.domain.quota.QuotaWindow;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ConnectionQuotasTest {
    private static final BrokerConfigs STARTUP = BrokerConfigs.of(List.of());
    /** 2 samples of a second: a rate is measured over at least a second. */
    private static final QuotaWindow WINDOW = new QuotaWindow(2, 1_000);

    private final ManualClock clock = new ManualClock();
    private final Map<String, Integer> ipThrottles = new HashMap<>();
    private final AtomicInteger wakeUps = new AtomicInteger();
    private final ConnectionQuotas quotas = new ConnectionQuotas(STARTUP, Map.of("plain", "PLAIN", "ext", "EXT"),
            host -> host.equals("broker-host") ? "10.0.0.7" : null,
            ip -> ipThrottles.getOrDefault(ip, 0), WINDOW, clock);

    {
        quotas.whenSlotsMayHaveFreed(wakeUps::incrementAndGet);
    }

    private void configs(Map<String, String> dynamic) {
        quotas.useBrokerConfigs(STARTUP.withDynamic(Map.of(), dynamic));
    }

    @Test
    void withoutLimitsEveryConnectionIsAccepted() {
        for (int i = 0; i < 1_000; i++) {
            assertThat(quotas.attempt("plain", "10.0.0.1").proceed()).isEqualTo(Decision.ACCEPT);
        }
        assertThat(quotas.connectionsFrom("10.0.0.1")).isEqualTo(1_000);
    }

    @Test
    void anIpOverItsMaximumIsRefusedAtOnceAndAClosedConnectionMakesRoom() {
        configs(Map.of("max.connections.per.ip", "2", "max.connections.per.ip.overrides", "127.0.0.1:3,broker-host:1"));

        Attempt first = quotas.attempt("plain", "10.0.0.1");
        assertThat(first.proceed().verdict()).isEqualTo(Verdict.ACCEPT);
        assertThat(quotas.attempt("ext", "10.0.0.1").proceed().verdict()).as("counted across listeners")
                .isEqualTo(Verdict.ACCEPT);
        assertThat(quotas.attempt("plain", "10.0.0.1").proceed())
                .isEqualTo(new Decision(Verdict.REFUSE, 0, "max.connections.per.ip", 2));
        for (int i = 0; i < 3; i++) {
            assertThat(quotas.attempt("plain", "127.0.0.1").proceed().verdict()).isEqualTo(Verdict.ACCEPT);
        }
        assertThat(quotas.attempt("plain", "127.0.0.1").proceed().bound()).as("its override").isEqualTo(3);
        assertThat(quotas.attempt("plain", "10.0.0.7").proceed().verdict()).isEqualTo(Verdict.ACCEPT);
        assertThat(quotas.attempt("plain", "10.0.0.7").proceed().bound()).as("a host name's override").isEqualTo(1);

        first.closed();
        first.closed(); // once only
        assertThat(quotas.connectionsFrom("10.0.0.1")).isEqualTo(1);
        assertThat(quotas.attempt("plain", "10.0.0.1").proceed().verdict()).isEqualTo(Verdict.ACCEPT);
    }

    @Test
    void atTheBrokersMaximumAConnectionWaitsUntilOneClosesOrTheLimitRises() {
        configs(Map.of("max.connections", "2"));
        Attempt a = quotas.attempt("plain", "10.0.0.1");
        a.proceed();
        quotas.attempt("ext", "10.0.0.2").proceed();

        Attempt waiting = quotas.attempt("plain", "10.0.0.3");
        assertThat(waiting.proceed()).isEqualTo(new Decision(Verdict.WAIT, 0, "max.connections", 2));
        assertThat(waiting.proceed().verdict()).as("still full").isEqualTo(Verdict.WAIT);
        int before = wakeUps.get();
        a.closed();
        assertThat(wakeUps.get()).as("a waiting listener is told").isEqualTo(before + 1);
        assertThat(waiting.proceed().verdict()).isEqualTo(Verdict.ACCEPT);

        Attempt next = quotas.attempt("plain", "10.0.0.4");
        assertThat(next.proceed().verdict()).isEqualTo(Verdict.WAIT);
        configs(Map.of("max.connections", "3"));
        assertThat(wakeUps.get()).isEqualTo(before + 2);
        assertThat(next.proceed().verdict()).isEqualTo(Verdict.ACCEPT);
    }

    @Test
    void aListenersOwnMaximumHoldsOnlyThatListener() {
        configs(Map.of("listener.name.ext.max.connections", "1"));
        quotas.attempt("ext", "10.0.0.1").proceed();

        assertThat(quotas.attempt("ext", "10.0.0.2").proceed())
                .isEqualTo(new Decision(Verdict.WAIT, 0, "max.connections", 1));
        assertThat(quotas.attempt("plain", "10.0.0.2").proceed().verdict()).isEqualTo(Verdict.ACCEPT);
    }

    @Test
    void overTheCreationRateAConnectionIsDelayedOnceThenAccepted() {
        configs(Map.of("max.connection.creation.rate", "2"));
        for (int i = 0; i < 2; i++) {
            assertThat(quotas.attempt("plain", "10.0.0.1").proceed().verdict()).isEqualTo(Verdict.ACCEPT);
        }
        Attempt third = quotas.attempt("ext", "10.0.0.1");
        // 3 in the second measured so far against 2 a second: 50 % over, half a second to make up
        assertThat(third.proceed()).isEqualTo(new Decision(Verdict.DELAY, 500, "max.connection.creation.rate", 2));

        clock.advance(500);
        assertThat(third.proceed().verdict()).as("counted once: no second delay").isEqualTo(Verdict.ACCEPT);
        assertThat(quotas.attempt("plain", "10.0.0.1").proceed().ms()).as("4 in 1.5 s: 500 ms to make up")
                .isEqualTo(500);
        for (int i = 0; i < 10; i++) {
            quotas.attempt("plain", "10.0.0.1").proceed();
        }
        assertThat(quotas.attempt("plain", "10.0.0.1").proceed().ms()).as("far over: capped at one sample")
                .isEqualTo(1_000);
    }

    @Test
    void aListenersOwnCreationRateDelaysOnlyItsConnections() {
        configs(Map.of("listener.name.ext.max.connection.creation.rate", "1"));
        quotas.attempt("ext", "10.0.0.1").proceed();

        assertThat(quotas.attempt("ext", "10.0.0.1").proceed())
                .satisfies(d -> assertThat(d.verdict()).isEqualTo(Verdict.DELAY))
                .satisfies(d -> assertThat(d.bound()).isEqualTo(1));
        assertThat(quotas.attempt("plain", "10.0.0.1").proceed().verdict()).isEqualTo(Verdict.ACCEPT);
    }

    @Test
    void aConnectionOverItsIpsRateIsThrottledUncountedAndLeavesTheBrokersRateAlone() {
        configs(Map.of("max.connection.creation.rate", "2", "max.connections.per.ip", "1"));
        ipThrottles.put("10.0.0.1", 700);

        for (int i = 0; i < 10; i++) {
            assertThat(quotas.attempt("plain", "10.0.0.1").proceed())
                    .isEqualTo(new Decision(Verdict.THROTTLE, 700, "connection_creation_rate", 0));
        }
        assertThat(quotas.connectionsFrom("10.0.0.1")).isZero();
        assertThat(quotas.attempt("plain", "10.0.0.2").proceed().verdict())
                .as("the throttled ones were taken back out of the broker's rate").isEqualTo(Verdict.ACCEPT);
    }
}
