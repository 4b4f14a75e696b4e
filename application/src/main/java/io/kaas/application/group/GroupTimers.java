package io.kaas.application.group;

import io.kaas.application.port.out.Clock;
import io.kaas.application.port.out.Scheduler;
import io.kaas.domain.group.GroupTimer;
import io.kaas.domain.group.TimerOp;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * Runs one group's timers on the {@link Scheduler}. A timer replaces the pending one with the same
 * key; each scheduled run carries a token, so a run that lost a race with its own cancellation is
 * recognised and ignored. Not thread-safe: the owning {@link CoordinatedGroup} calls it under its lock.
 */
final class GroupTimers {
    private final Scheduler scheduler;
    private final Clock clock;
    /** Called from the scheduler thread with the timer and its token; must take the group's lock. */
    private final BiConsumer<GroupTimer, Object> onDue;
    private final Map<String, Pending> pending = new HashMap<>();

    GroupTimers(Scheduler scheduler, Clock clock, BiConsumer<GroupTimer, Object> onDue) {
        this.scheduler = scheduler;
        this.clock = clock;
        this.onDue = onDue;
    }

    void apply(List<TimerOp> ops) {
        for (TimerOp op : ops) {
            if (op instanceof TimerOp.Schedule schedule) {
                schedule(schedule);
            } else if (op instanceof TimerOp.Cancel cancel) {
                cancel(cancel.key());
            }
        }
    }

    /** True if {@code token} is still the timer's current run: the caller may fire it (once). */
    boolean claim(GroupTimer timer, Object token) {
        Pending current = pending.get(timer.key());
        if (current == null || current.token != token) {
            return false;
        }
        pending.remove(timer.key());
        return true;
    }

    void cancelAll() {
        pending.values().forEach(p -> p.handle.cancel());
        pending.clear();
    }

    private void schedule(TimerOp.Schedule schedule) {
        GroupTimer timer = schedule.timer();
        cancel(timer.key());
        Object token = new Object();
        long delay = Math.max(schedule.deadlineMs() - clock.nowMs(), 0);
        pending.put(timer.key(), new Pending(token, scheduler.schedule(() -> onDue.accept(timer, token), delay)));
    }

    private void cancel(String key) {
        Pending removed = pending.remove(key);
        if (removed != null) {
            removed.handle.cancel();
        }
    }

    private record Pending(Object token, Scheduler.Cancellable handle) {
    }
}
