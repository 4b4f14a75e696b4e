package io.kaas.domain.group;

import io.kaas.domain.error.KafkaError;
import java.util.List;

/**
 * The answer to a JoinGroup.
 *
 * @param memberId       the member's id: assigned here for a new member, echoed otherwise
 * @param protocolType   null until the group has a generation (and on errors)
 * @param protocolName   the selected protocol, null until the group has a generation
 * @param leaderId       the generation's leader, "" when there is none
 * @param skipAssignment tells a static leader rejoining a stable group not to run the assignor (v9+)
 * @param members        every member with its metadata for the selected protocol, for the leader only
 */
public record JoinResponse(KafkaError error, int generationId, String protocolType, String protocolName,
                           String leaderId, String memberId, boolean skipAssignment, List<JoinedMember> members) {
    /** The generation of a response that carries none. */
    public static final int NO_GENERATION = -1;

    public JoinResponse {
        members = List.copyOf(members);
    }

    public static JoinResponse failed(String memberId, KafkaError error) {
        return new JoinResponse(error, NO_GENERATION, null, null, "", memberId, false, List.of());
    }

    /** A member as the leader sees it in the JoinGroup response. */
    public record JoinedMember(String memberId, String groupInstanceId, byte[] metadata) {
    }
}
