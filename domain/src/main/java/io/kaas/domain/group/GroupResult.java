package io.kaas.domain.group;

import java.util.List;

/**
 * What handling one command did: the events it applied (in order), its immediate response, the
 * answers owed to parked requests, and the timer instructions.
 */
public record GroupResult<R>(R response, List<GroupEvent> events, List<GroupReply> replies, List<TimerOp> timers) {

    public GroupResult {
        events = List.copyOf(events);
        replies = List.copyOf(replies);
        timers = List.copyOf(timers);
    }
}
