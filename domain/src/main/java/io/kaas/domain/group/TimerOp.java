package io.kaas.domain.group;

/** An instruction to whoever runs the group's timers. */
public sealed interface TimerOp {

    /** Fire {@code timer} at {@code deadlineMs}, replacing a pending timer with the same key. */
    record Schedule(GroupTimer timer, long deadlineMs) implements TimerOp {
    }

    /** Forget the pending timer with this key, if any. */
    record Cancel(String key) implements TimerOp {
    }
}
