package io.kaas.domain.group;

import java.util.List;
import java.util.Objects;

/**
 * A stable group's generation as it is stored, so a restarted coordinator resumes it instead of
 * making every member rejoin (what Apache keeps as the group metadata record in
 * {@code __consumer_offsets}). Like Apache, each member keeps only its metadata for the
 * generation's protocol.
 */
public record GroupSnapshot(int generationId, String protocolType, String protocolName, String leaderId,
                            List<Member> members) {
    public GroupSnapshot {
        Objects.requireNonNull(protocolName, "protocolName");
        members = List.copyOf(members);
    }

    /**
     * @param subscription the member's metadata for the generation's protocol
     * @param assignment   what the leader assigned it
     */
    public record Member(String memberId, String groupInstanceId, String clientId, String clientHost,
                         int rebalanceTimeoutMs, int sessionTimeoutMs, byte[] subscription, byte[] assignment) {
    }

    /** Whether {@code other} stores the same generation with the same members and leader (bytes aside). */
    public boolean sameGenerationAs(GroupSnapshot other) {
        return other != null && generationId == other.generationId && Objects.equals(leaderId, other.leaderId)
                && members.stream().map(Member::memberId).toList()
                .equals(other.members.stream().map(Member::memberId).toList());
    }
}
