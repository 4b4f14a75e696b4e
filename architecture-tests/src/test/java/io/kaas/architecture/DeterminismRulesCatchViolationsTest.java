package io.kaas.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The determinism rules flag every clock, sleep and random source they name, called or referenced. */
class DeterminismRulesCatchViolationsTest {

    @Test
    void clocksAndSleepsAreFlaggedWhetherCalledOrReferenced() {
        var rule = KaasRules.noClockOrSleepInTheCore(Fixtures.ROOT);
        assertThat(Fixtures.flaggedBy(rule)).containsExactly(
                "application.service.Sleeps", "domain.ClockByReference", "domain.ClockCalls");
        assertThat(Fixtures.report(rule)).contains(
                "references method <java.lang.System.currentTimeMillis()>",
                "<java.lang.System.nanoTime()>",
                "<java.time.Instant.now()>",
                "<java.time.LocalDateTime.now()>",
                "<java.time.LocalDate.now()>",
                "<java.time.ZonedDateTime.now()>",
                "<java.time.OffsetDateTime.now()>",
                "<java.time.Clock.systemUTC()>",
                "<java.time.Clock.systemDefaultZone()>",
                "<java.time.Clock.system(java.time.ZoneId)>",
                "<java.time.InstantSource.system()>",
                "<java.lang.Thread.sleep(long)>",
                "<java.lang.Thread.sleep(long, int)>",
                "<java.util.concurrent.TimeUnit.sleep(long)>");
    }

    @Test
    void unseededRandomnessIsFlaggedWhetherCalledOrReferenced() {
        var rule = KaasRules.noRandomnessInTheCore(Fixtures.ROOT);
        assertThat(Fixtures.flaggedBy(rule)).containsExactly("application.service.RandomIds", "application.service.Randomness");
        assertThat(Fixtures.report(rule)).contains(
                "references method <java.util.UUID.randomUUID()>",
                "calls constructor <java.util.Random.<init>()>",
                "references constructor <java.util.Random.<init>()>",
                "<java.lang.Math.random()>",
                "<java.util.concurrent.ThreadLocalRandom.current()>",
                "<java.security.SecureRandom.<init>()>",
                "<java.security.SecureRandom.getInstanceStrong()>",
                "<java.util.SplittableRandom.<init>()>",
                "<java.util.Collections.shuffle(java.util.List)>");
    }

    @Test
    void injectedTimeAndSeededRandomnessPass() {
        assertThat(Fixtures.flaggedBy(KaasRules.noClockOrSleepInTheCore(Fixtures.ROOT))).doesNotContain("domain.Deterministic");
        assertThat(Fixtures.flaggedBy(KaasRules.noRandomnessInTheCore(Fixtures.ROOT))).doesNotContain("domain.Deterministic");
    }

    @Test
    void theRulesCoverTheRealCore() {
        assertThat(KaasRules.noClockOrSleepInTheCore(KaasRules.KAAS).getDescription())
                .contains("'io.kaas.domain..'", "'io.kaas.application..'");
        assertThat(KaasRules.noRandomnessInTheCore(KaasRules.KAAS).getDescription())
                .contains("'io.kaas.domain..'", "'io.kaas.application..'");
    }
}
