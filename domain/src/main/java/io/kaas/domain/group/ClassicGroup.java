package io.kaas.domain.group;

import io.kaas.domain.error.KafkaError;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * One consumer group under the classic rebalance protocol (JoinGroup / SyncGroup / Heartbeat /
 * LeaveGroup), with Apache Kafka 3.7's semantics: the initial rebalance delay, KIP-394's two-step
 * join, KIP-345 static members and their fencing, generation checks, session and rebalance
 * timeouts.
 *
 * <p>Deterministic and single-threaded: {@link #handle} takes the time as an argument and returns
 * what happened — the events (already applied), the immediate response, the answers owed to parked
 * JoinGroup and SyncGroup requests, and timer instructions. State changes only in {@link #apply},
 * so replaying a group's events rebuilds it exactly. The caller serialises access and runs the timers.
 */
public final class ClassicGroup {
    private final String groupId;
    private final GroupConfig config;
    private GroupState state = GroupState.EMPTY;
    private int generationId;
    private String protocolType;
    private String protocolName;
    private String leaderId;
    /** Insertion order makes leader hand-over and protocol votes deterministic. */
    private final Map<String, GroupMember> members = new LinkedHashMap<>();
    /** group.instance.id → the member id currently holding it. */
    private final Map<String, String> staticMembers = new HashMap<>();
    /** Member ids handed out with MEMBER_ID_REQUIRED, not yet rejoined. */
    private final Set<String> pendingMembers = new LinkedHashSet<>();
    /** Members of the current generation that have not sent SyncGroup yet. */
    private final Set<String> pendingSyncMembers = new LinkedHashSet<>();
    /** A member arrived during the first rebalance's initial delay, which then waits once more. */
    private boolean newMemberAdded;
    /** The join phase is the initial delay: it ends on its timer, not when everyone has joined. */
    private boolean initialDelayPending;
    /** Topics the members of a consumer group subscribe to; null when not known. */
    private Set<String> subscribedTopics;
    /** When the group last became empty (Apache's {@code currentStateTimestamp} for Empty). */
    private long emptySinceMs;

    public ClassicGroup(String groupId, GroupConfig config) {
        this.groupId = groupId;
        this.config = config;
    }

    /**
     * A group known only from its stored offsets: empty since {@code nowMs}, with the protocol type
     * it last had (null for a group that only ever committed offsets). Counting emptiness from the
     * load, not from when members left before a restart, can only keep offsets longer.
     */
    public static ClassicGroup restored(String groupId, String protocolType, GroupConfig config, long nowMs) {
        ClassicGroup group = new ClassicGroup(groupId, config);
        group.protocolType = protocolType;
        group.emptySinceMs = nowMs;
        return group;
    }

    /** Handles one command at {@code nowMs}; see {@link GroupCommand} for what each does. */
    @SuppressWarnings("unchecked")
    public <R> GroupResult<R> handle(GroupCommand<R> command, long nowMs) {
        Decision d = new Decision(this, nowMs);
        Object response = null;
        if (command instanceof GroupCommand.Join join) {
            JoinHandling.handle(d, join);
        } else if (command instanceof GroupCommand.Sync sync) {
            SyncHandling.handle(d, sync);
        } else if (command instanceof GroupCommand.Heartbeat heartbeat) {
            response = MemberHandling.heartbeat(d, heartbeat);
        } else if (command instanceof GroupCommand.Leave leave) {
            response = MemberHandling.leave(d, leave);
        } else if (command instanceof GroupCommand.ValidateOffsetCommit commit) {
            response = MemberHandling.validateOffsetCommit(d, commit);
        } else if (command instanceof GroupCommand.ValidateTxnOffsetCommit commit) {
            response = MemberHandling.validateTxnOffsetCommit(d, commit);
        } else if (command instanceof GroupCommand.FireTimer fire) {
            TimerHandling.fire(d, fire.timer());
        } else if (command instanceof GroupCommand.Delete) {
            response = LifecycleHandling.delete(d);
        } else if (command instanceof GroupCommand.DropIfEmpty) {
            response = LifecycleHandling.dropIfEmpty(d);
        } else if (command instanceof GroupCommand.Resume resume) {
            LifecycleHandling.resume(d, resume.snapshot());
        } else if (command instanceof GroupCommand.Unload) {
            LifecycleHandling.unload(d);
        } else {
            throw new IllegalArgumentException("unknown command " + command);
        }
        return d.result((R) response);
    }

    /** Applies one event: the only place a group changes. */
    public void apply(GroupEvent event) {
        if (event instanceof GroupEvent.MemberAdded added) {
            addMember(added);
        } else if (event instanceof GroupEvent.MemberUpdated updated) {
            member(updated.memberId()).update(updated.protocols(), updated.rebalanceTimeoutMs(),
                    updated.sessionTimeoutMs(), updated.joinRequestId());
        } else if (event instanceof GroupEvent.MemberRemoved removed) {
            removeMember(removed.memberId());
        } else if (event instanceof GroupEvent.PendingMemberAdded pending) {
            pendingMembers.add(pending.memberId());
        } else if (event instanceof GroupEvent.PendingMemberRemoved pending) {
            pendingMembers.remove(pending.memberId());
        } else if (event instanceof GroupEvent.StaticMemberReplaced replaced) {
            replaceStaticMember(replaced);
        } else if (event instanceof GroupEvent.JoinAnswered answered) {
            member(answered.memberId()).setAwaitingJoin(GroupMember.NONE);
        } else if (event instanceof GroupEvent.SyncParked parked) {
            member(parked.memberId()).setAwaitingSync(parked.syncRequestId());
        } else if (event instanceof GroupEvent.SyncAnswered answered) {
            member(answered.memberId()).setAwaitingSync(GroupMember.NONE);
        } else if (event instanceof GroupEvent.PendingSyncRemoved synced) {
            pendingSyncMembers.remove(synced.memberId());
        } else if (event instanceof GroupEvent.RebalancePrepared prepared) {
            if (state == GroupState.COMPLETING_REBALANCE) {
                members.values().forEach(m -> m.setAssignment(null));
            }
            pendingSyncMembers.clear();
            initialDelayPending = prepared.initialDelay();
            transitionTo(GroupState.PREPARING_REBALANCE);
        } else if (event instanceof GroupEvent.InitialDelayExtended) {
            newMemberAdded = false;
        } else if (event instanceof GroupEvent.JoinPhaseRearmed) {
            initialDelayPending = false;
        } else if (event instanceof GroupEvent.LeaderElected elected) {
            leaderId = elected.memberId();
        } else if (event instanceof GroupEvent.GenerationStarted started) {
            startGeneration(started);
        } else if (event instanceof GroupEvent.AssignmentApplied applied) {
            members.values().forEach(m -> m.setAssignment(applied.assignments().get(m.memberId())));
            transitionTo(GroupState.STABLE);
        } else if (event instanceof GroupEvent.GroupDied) {
            transitionTo(GroupState.DEAD);
        } else if (event instanceof GroupEvent.Resumed resumed) {
            resume(resumed.snapshot());
        } else {
            throw new IllegalArgumentException("unknown event " + event);
        }
    }

    private void addMember(GroupEvent.MemberAdded added) {
        if (added.groupInstanceId() != null) {
            if (staticMembers.containsKey(added.groupInstanceId())) {
                throw new IllegalStateException("static member " + added.groupInstanceId() + " is already in group " + groupId);
            }
            staticMembers.put(added.groupInstanceId(), added.memberId());
        }
        if (members.isEmpty()) {
            protocolType = added.protocolType();
        }
        if (leaderId == null) {
            leaderId = added.memberId();
        }
        // Only arrivals during a brand-new group's first rebalance extend its initial delay.
        if (state == GroupState.PREPARING_REBALANCE && generationId == 0) {
            newMemberAdded = true;
        }
        members.put(added.memberId(), new GroupMember(added));
        pendingMembers.remove(added.memberId());
    }

    private void removeMember(String memberId) {
        GroupMember member = members.remove(memberId);
        if (member != null && member.isStatic()) {
            staticMembers.remove(member.groupInstanceId());
        }
        if (memberId.equals(leaderId)) {
            leaderId = members.isEmpty() ? null : members.keySet().iterator().next();
        }
        pendingMembers.remove(memberId);
        pendingSyncMembers.remove(memberId);
    }

    private void replaceStaticMember(GroupEvent.StaticMemberReplaced replaced) {
        GroupMember member = members.remove(replaced.oldMemberId());
        if (member == null) {
            throw new IllegalStateException("cannot replace unknown member " + replaced.oldMemberId());
        }
        member.renameTo(replaced.newMemberId());
        member.setAwaitingJoin(GroupMember.NONE);
        member.setAwaitingSync(GroupMember.NONE);
        members.put(replaced.newMemberId(), member);
        if (replaced.oldMemberId().equals(leaderId)) {
            leaderId = replaced.newMemberId();
        }
        if (pendingSyncMembers.remove(replaced.oldMemberId())) {
            pendingSyncMembers.add(replaced.newMemberId());
        }
        staticMembers.put(replaced.groupInstanceId(), replaced.newMemberId());
    }

    private void resume(GroupSnapshot snapshot) {
        if (state != GroupState.EMPTY || !members.isEmpty()) {
            throw new IllegalStateException("group " + groupId + " can only resume when empty and new, not " + state);
        }
        generationId = snapshot.generationId();
        protocolType = snapshot.protocolType();
        protocolName = snapshot.protocolName();
        leaderId = snapshot.leaderId();
        for (GroupSnapshot.Member m : snapshot.members()) {
            GroupMember member = new GroupMember(new GroupEvent.MemberAdded(m.memberId(), m.groupInstanceId(),
                    m.clientId(), m.clientHost(), m.rebalanceTimeoutMs(), m.sessionTimeoutMs(), protocolType,
                    List.of(new Protocol(protocolName, m.subscription())), GroupMember.NONE));
            member.setNew(false);
            member.setAssignment(m.assignment());
            members.put(m.memberId(), member);
            if (m.groupInstanceId() != null) {
                staticMembers.put(m.groupInstanceId(), m.memberId());
            }
        }
        Set<String> topics = subscribedTopicsUnder(protocolName);
        subscribedTopics = topics == null ? null : Set.copyOf(topics);
        state = GroupState.STABLE; // loaded as it was stored, not reached by a rebalance

    }

    /**
     * The stable generation to store ({@link GroupSnapshot}), or empty when the group is not stable
     * (in a rebalance the last stored generation stands; an empty group stores none).
     */
    public Optional<GroupSnapshot> snapshot() {
        if (state != GroupState.STABLE) {
            return Optional.empty();
        }
        List<GroupSnapshot.Member> stored = new ArrayList<>();
        for (GroupMember m : members.values()) {
            stored.add(new GroupSnapshot.Member(m.memberId(), m.groupInstanceId(), m.clientId(), m.clientHost(),
                    m.rebalanceTimeoutMs(), m.sessionTimeoutMs(), m.metadata(protocolName), m.assignment()));
        }
        return Optional.of(new GroupSnapshot(generationId, protocolType, protocolName, leaderId, stored));
    }

    private void startGeneration(GroupEvent.GenerationStarted started) {
        generationId = started.generationId();
        protocolName = started.protocolName();
        subscribedTopics = started.subscribedTopics() == null ? null : Set.copyOf(started.subscribedTopics());
        initialDelayPending = false;
        members.values().forEach(m -> m.setNew(false));
        pendingSyncMembers.clear();
        pendingSyncMembers.addAll(members.keySet());
        if (members.isEmpty()) {
            emptySinceMs = started.atMs();
        }
        transitionTo(members.isEmpty() ? GroupState.EMPTY : GroupState.COMPLETING_REBALANCE);
    }

    private void transitionTo(GroupState next) {
        if (!next.canFollow(state)) {
            throw new IllegalStateException("group " + groupId + " cannot move from " + state + " to " + next);
        }
        state = next;
    }

    // Queries.

    public String groupId() {
        return groupId;
    }

    public GroupState state() {
        return state;
    }

    public int generationId() {
        return generationId;
    }

    /** The protocol type of the group's members ({@code consumer} for consumers), null if none yet. */
    public String protocolType() {
        return protocolType;
    }

    public String protocolName() {
        return protocolName;
    }

    /** The generation's leader, null when the group has no members. */
    public String leaderId() {
        return leaderId;
    }

    public int size() {
        return members.size();
    }

    public Set<String> memberIds() {
        return Collections.unmodifiableSet(members.keySet());
    }

    public boolean hasMember(String memberId) {
        return members.containsKey(memberId);
    }

    /**
     * Whether the group's members consume {@code topic}. When that is not known (not a consumer
     * group, or metadata it cannot read) the answer is yes, to be safe.
     */
    public boolean isSubscribedTo(String topic) {
        return subscribedTopics == null || subscribedTopics.contains(topic);
    }

    /** When the group last became empty (meaningful while it is). */
    long emptySinceMs() {
        return emptySinceMs;
    }

    /** Topics the members of a consumer group subscribe to; null when not known. */
    Set<String> subscribedTopics() {
        return subscribedTopics;
    }

    /** The group as DescribeGroups shows it. */
    public GroupDescription describe() {
        boolean stable = state == GroupState.STABLE;
        List<GroupDescription.MemberDescription> described = new ArrayList<>();
        for (GroupMember m : members.values()) {
            described.add(new GroupDescription.MemberDescription(m.memberId(), m.groupInstanceId(), m.clientId(),
                    m.clientHost(), stable ? m.metadata(protocolName) : new byte[0],
                    stable ? m.assignment() : new byte[0]));
        }
        return new GroupDescription(groupId, KafkaError.NONE, state, protocolType == null ? "" : protocolType,
                stable ? protocolName : "", described);
    }

    /** The group as ListGroups shows it. */
    public GroupOverview overview() {
        return new GroupOverview(groupId, protocolType == null ? "" : protocolType, state);
    }

    // Package-private reads for the handlers.

    GroupConfig config() {
        return config;
    }

    GroupMember member(String memberId) {
        GroupMember member = members.get(memberId);
        if (member == null) {
            throw new IllegalStateException("no member " + memberId + " in group " + groupId);
        }
        return member;
    }

    Optional<GroupMember> findMember(String memberId) {
        return Optional.ofNullable(members.get(memberId));
    }

    /** A snapshot, safe to iterate while emitting events. */
    List<GroupMember> members() {
        return List.copyOf(members.values());
    }

    boolean isLeader(String memberId) {
        return memberId.equals(leaderId);
    }

    /** The member id holding a static instance id, or null. */
    String staticMemberId(String groupInstanceId) {
        return groupInstanceId == null ? null : staticMembers.get(groupInstanceId);
    }

    boolean isPendingMember(String memberId) {
        return pendingMembers.contains(memberId);
    }

    Set<String> pendingMembers() {
        return Set.copyOf(pendingMembers);
    }

    Set<String> pendingSyncMembers() {
        return new LinkedHashSet<>(pendingSyncMembers);
    }

    boolean newMemberAdded() {
        return newMemberAdded;
    }

    boolean initialDelayPending() {
        return initialDelayPending;
    }

    /** Members with a JoinGroup parked in this rebalance. */
    int awaitingJoinCount() {
        return (int) members.values().stream().filter(GroupMember::isAwaitingJoin).count();
    }

    /** Every member has a JoinGroup parked and no handed-out member id is still outstanding. */
    boolean allMembersJoined() {
        return pendingMembers.isEmpty() && members.values().stream().allMatch(GroupMember::isAwaitingJoin);
    }

    /** The longest rebalance timeout among the members: how long a rebalance waits for stragglers. */
    int rebalanceTimeoutMs() {
        return members.values().stream().mapToInt(GroupMember::rebalanceTimeoutMs).max().orElse(0);
    }

    /**
     * Checks that a request comes from a current member: a static member's instance id must map to
     * this member id (else FENCED_INSTANCE_ID), and the member must exist (else UNKNOWN_MEMBER_ID).
     */
    KafkaError validateMember(String memberId, String groupInstanceId) {
        if (groupInstanceId != null) {
            String current = staticMembers.get(groupInstanceId);
            if (current == null) {
                return KafkaError.UNKNOWN_MEMBER_ID;
            }
            if (!current.equals(memberId)) {
                return KafkaError.FENCED_INSTANCE_ID;
            }
        }
        return members.containsKey(memberId) ? KafkaError.NONE : KafkaError.UNKNOWN_MEMBER_ID;
    }

    /**
     * Whether a joining member fits: an empty group takes any protocol type and a non-empty protocol
     * list; otherwise the type must match and one of the protocols must be supported by every member.
     */
    boolean supportsProtocols(String memberProtocolType, List<Protocol> memberProtocols) {
        if (state == GroupState.EMPTY) {
            return memberProtocolType != null && !memberProtocolType.isEmpty() && !memberProtocols.isEmpty();
        }
        if (!memberProtocolType.equals(protocolType)) {
            return false;
        }
        Set<String> common = commonProtocols();
        return memberProtocols.stream().anyMatch(p -> common.contains(p.name()));
    }

    /** The protocol every member supports that most members prefer; ties go to the first member's vote. */
    String selectProtocol() {
        Set<String> candidates = commonProtocols();
        Map<String, Integer> votes = new LinkedHashMap<>();
        for (GroupMember m : members.values()) {
            votes.merge(m.vote(candidates), 1, Integer::sum);
        }
        String best = null;
        for (Map.Entry<String, Integer> vote : votes.entrySet()) {
            if (best == null || vote.getValue() > votes.get(best)) {
                best = vote.getKey();
            }
        }
        return best;
    }

    private Set<String> commonProtocols() {
        Set<String> common = null;
        for (GroupMember m : members.values()) {
            Set<String> names = new LinkedHashSet<>();
            m.protocols().forEach(p -> names.add(p.name()));
            if (common == null) {
                common = names;
            } else {
                common.retainAll(names);
            }
        }
        return common == null ? Set.of() : common;
    }

    /** The topics a consumer group's members subscribe to under {@code protocol}; null when unknowable. */
    Set<String> subscribedTopicsUnder(String protocol) {
        if (!ConsumerSubscription.PROTOCOL_TYPE.equals(protocolType)) {
            return null;
        }
        if (members.isEmpty()) {
            return Set.of();
        }
        Set<String> topics = new LinkedHashSet<>();
        for (GroupMember m : members.values()) {
            Optional<Set<String>> subscribed = ConsumerSubscription.topics(m.metadata(protocol));
            if (subscribed.isEmpty()) {
                return null;
            }
            topics.addAll(subscribed.get());
        }
        return topics;
    }

    /** Every member with its metadata for the selected protocol: what the leader assigns from. */
    List<JoinResponse.JoinedMember> joinedMembers() {
        List<JoinResponse.JoinedMember> joined = new ArrayList<>();
        for (GroupMember m : members.values()) {
            joined.add(new JoinResponse.JoinedMember(m.memberId(), m.groupInstanceId(), m.metadata(protocolName)));
        }
        return joined;
    }


    @Override
    public String toString() {
        return "ClassicGroup(" + groupId + ", " + state + ", generation " + generationId + ", " + members.size()
                + " members)";
    }
}
