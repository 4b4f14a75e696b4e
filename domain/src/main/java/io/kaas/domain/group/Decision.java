package io.kaas.domain.group;

import java.util.ArrayList;
import java.util.List;

/**
 * What one command is doing to a group, as it goes: each emitted event is applied at once (so the
 * next step of the handling sees it) and recorded, alongside the replies and timer instructions.
 */
final class Decision {
    private final ClassicGroup group;
    private final long nowMs;
    private final List<GroupEvent> events = new ArrayList<>();
    private final List<GroupReply> replies = new ArrayList<>();
    private final List<TimerOp> timers = new ArrayList<>();

    Decision(ClassicGroup group, long nowMs) {
        this.group = group;
        this.nowMs = nowMs;
    }

    ClassicGroup group() {
        return group;
    }

    long nowMs() {
        return nowMs;
    }

    void emit(GroupEvent event) {
        group.apply(event);
        events.add(event);
    }

    void replyJoin(long requestId, JoinResponse response) {
        replies.add(new GroupReply.ToJoin(requestId, response));
    }

    void replySync(long requestId, SyncResponse response) {
        replies.add(new GroupReply.ToSync(requestId, response));
    }

    void schedule(GroupTimer timer, long delayMs) {
        timers.add(new TimerOp.Schedule(timer, nowMs + delayMs));
    }

    void cancel(GroupTimer timer) {
        timers.add(new TimerOp.Cancel(timer.key()));
    }

    <R> GroupResult<R> result(R response) {
        return new GroupResult<>(response, events, replies, timers);
    }
}
