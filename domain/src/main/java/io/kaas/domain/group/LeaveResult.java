package io.kaas.domain.group;

import io.kaas.domain.error.KafkaError;
import java.util.List;

/** The answer to a LeaveGroup: a group-level error and one result per leaving member. */
public record LeaveResult(KafkaError error, List<MemberResult> members) {

    public LeaveResult {
        members = List.copyOf(members);
    }

    /** One member's leave, identified as the request named it. */
    public record MemberResult(String memberId, String groupInstanceId, KafkaError error) {
    }
}
