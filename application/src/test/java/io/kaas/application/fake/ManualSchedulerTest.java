package io.kaas.application.fake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.application.port.out.Scheduler;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ManualSchedulerTest {
    private final ManualClock clock = new ManualClock(1_000L);
    private final ManualScheduler scheduler = new ManualScheduler(clock);
    private final List<String> ran = new ArrayList<>();

    @Test
    void runsNothingBeforeItIsDue() {
        scheduler.schedule(() -> ran.add("a"), 100);
        scheduler.advance(99);
        assertThat(ran).isEmpty();
        assertThat(scheduler.pending()).isOne();
        assertThat(clock.nowMs()).isEqualTo(1_099L);

        scheduler.advance(1);
        assertThat(ran).containsExactly("a");
        assertThat(scheduler.pending()).isZero();
    }

    @Test
    void runsDueTasksInTimeOrderThenSchedulingOrderWithTheClockAtTheirDueTime() {
        List<Long> times = new ArrayList<>();
        scheduler.schedule(() -> { ran.add("late"); times.add(clock.nowMs()); }, 300);
        scheduler.schedule(() -> { ran.add("early"); times.add(clock.nowMs()); }, 100);
        scheduler.schedule(() -> { ran.add("early-2"); times.add(clock.nowMs()); }, 100);

        scheduler.advance(1_000);

        assertThat(ran).containsExactly("early", "early-2", "late");
        assertThat(times).containsExactly(1_100L, 1_100L, 1_300L);
        assertThat(clock.nowMs()).isEqualTo(2_000L);
    }

    @Test
    void cancelledTasksNeverRun() {
        Scheduler.Cancellable a = scheduler.schedule(() -> ran.add("a"), 10);
        scheduler.schedule(() -> ran.add("b"), 10);
        a.cancel();
        assertThat(scheduler.pending()).isOne();

        scheduler.advance(10);
        a.cancel(); // after the fact: harmless
        assertThat(ran).containsExactly("b");
    }

    @Test
    void aTaskMayCancelALaterOne() {
        Scheduler.Cancellable[] later = new Scheduler.Cancellable[1];
        scheduler.schedule(() -> later[0].cancel(), 10);
        later[0] = scheduler.schedule(() -> ran.add("later"), 20);

        scheduler.advance(100);

        assertThat(ran).isEmpty();
    }

    @Test
    void tasksScheduledByTasksRunWhenTheyFallInsideTheWindow() {
        scheduler.schedule(() -> {
            ran.add("first");
            scheduler.schedule(() -> ran.add("second"), 50);
            scheduler.schedule(() -> ran.add("too late"), 500);
        }, 10);

        scheduler.advance(100);

        assertThat(ran).containsExactly("first", "second");
        assertThat(scheduler.pendingDueTimes()).containsExactly(1_510L);
    }

    @Test
    void zeroAndNegativeDelaysRunOnTheNextAdvance() {
        scheduler.schedule(() -> ran.add("zero"), 0);
        scheduler.schedule(() -> ran.add("negative"), -5);
        assertThat(ran).isEmpty();

        scheduler.advance(0);

        assertThat(ran).containsExactly("zero", "negative");
    }

    @Test
    void timeNeverGoesBack() {
        assertThatThrownBy(() -> scheduler.advance(-1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> clock.advance(-1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void ownsAClockWhenNoneIsGiven() {
        ManualScheduler own = new ManualScheduler();
        assertThat(own.clock().nowMs()).isEqualTo(ManualClock.DEFAULT_START_MS);
        own.advance(5);
        assertThat(own.clock().nowMs()).isEqualTo(ManualClock.DEFAULT_START_MS + 5);
    }
}
