package io.kaas.domain.group;

import io.kaas.domain.error.KafkaError;
import java.util.List;

/**
 * A group as DescribeGroups reports it. Member metadata and assignments are only known, and only
 * reported, while the group is stable.
 *
 * @param protocol the selected protocol while stable, else ""
 */
public record GroupDescription(String groupId, KafkaError error, GroupState state, String protocolType,
                               String protocol, List<MemberDescription> members) {

    public GroupDescription {
        members = List.copyOf(members);
    }

    /** How a group that does not exist is described: Dead, with no members (as Apache answers). */
    public static GroupDescription dead(String groupId) {
        return new GroupDescription(groupId, KafkaError.NONE, GroupState.DEAD, "", "", List.of());
    }

    /** The answer for a group this broker cannot describe (not its coordinator, an invalid id, …). */
    public static GroupDescription failed(String groupId, KafkaError error) {
        return new GroupDescription(groupId, error, GroupState.DEAD, "", "", List.of());
    }

    /** One member: where it connects from and what it was given. */
    public record MemberDescription(String memberId, String groupInstanceId, String clientId, String clientHost,
                                    byte[] metadata, byte[] assignment) {
    }
}
