package io.kaas.domain.group;

import java.util.List;
import java.util.Set;

/**
 * A member's state inside a {@link ClassicGroup}. Mutated only by {@link ClassicGroup#apply}; read
 * by the group's handlers.
 */
final class GroupMember {
    /** No request is parked. */
    static final long NONE = 0L;
    private static final byte[] NO_BYTES = new byte[0];

    private String memberId;
    private final String groupInstanceId;
    private final String clientId;
    private final String clientHost;
    private final String protocolType;
    private int rebalanceTimeoutMs;
    private int sessionTimeoutMs;
    private List<Protocol> protocols;
    private byte[] assignment = NO_BYTES;
    private long awaitingJoin = NONE;
    private long awaitingSync = NONE;
    /** Joined during the current rebalance: its session is the long new-member timeout, not its own. */
    private boolean isNew;

    GroupMember(GroupEvent.MemberAdded added) {
        this.memberId = added.memberId();
        this.groupInstanceId = added.groupInstanceId();
        this.clientId = added.clientId();
        this.clientHost = added.clientHost();
        this.protocolType = added.protocolType();
        this.rebalanceTimeoutMs = added.rebalanceTimeoutMs();
        this.sessionTimeoutMs = added.sessionTimeoutMs();
        this.protocols = added.protocols();
        this.awaitingJoin = added.joinRequestId();
        this.isNew = true;
    }

    String memberId() {
        return memberId;
    }

    String groupInstanceId() {
        return groupInstanceId;
    }

    boolean isStatic() {
        return groupInstanceId != null;
    }

    String clientId() {
        return clientId;
    }

    String clientHost() {
        return clientHost;
    }

    String protocolType() {
        return protocolType;
    }

    int rebalanceTimeoutMs() {
        return rebalanceTimeoutMs;
    }

    int sessionTimeoutMs() {
        return sessionTimeoutMs;
    }

    List<Protocol> protocols() {
        return protocols;
    }

    byte[] assignment() {
        return assignment;
    }

    long awaitingJoin() {
        return awaitingJoin;
    }

    long awaitingSync() {
        return awaitingSync;
    }

    boolean isAwaitingJoin() {
        return awaitingJoin != NONE;
    }

    boolean isAwaitingSync() {
        return awaitingSync != NONE;
    }

    boolean isNew() {
        return isNew;
    }

    /** This member's metadata for {@code protocol}. */
    byte[] metadata(String protocol) {
        for (Protocol p : protocols) {
            if (p.name().equals(protocol)) {
                return p.metadata();
            }
        }
        throw new IllegalArgumentException("member " + memberId + " does not support protocol " + protocol);
    }

    /** The member's most preferred protocol among the candidates. */
    String vote(Set<String> candidates) {
        for (Protocol p : protocols) {
            if (candidates.contains(p.name())) {
                return p.name();
            }
        }
        throw new IllegalStateException("member " + memberId + " supports none of " + candidates);
    }

    // Mutators: called by ClassicGroup.apply only.

    void renameTo(String newMemberId) {
        this.memberId = newMemberId;
    }

    void update(List<Protocol> newProtocols, int newRebalanceTimeoutMs, int newSessionTimeoutMs, long joinRequestId) {
        this.protocols = newProtocols;
        this.rebalanceTimeoutMs = newRebalanceTimeoutMs;
        this.sessionTimeoutMs = newSessionTimeoutMs;
        this.awaitingJoin = joinRequestId;
    }

    void setAwaitingJoin(long requestId) {
        this.awaitingJoin = requestId;
    }

    void setAwaitingSync(long requestId) {
        this.awaitingSync = requestId;
    }

    void setAssignment(byte[] newAssignment) {
        this.assignment = newAssignment == null ? NO_BYTES : newAssignment;
    }

    void setNew(boolean value) {
        this.isNew = value;
    }
}
