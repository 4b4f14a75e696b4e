package io.kaas.domain.group;

import io.kaas.domain.error.KafkaError;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Drives one {@link ClassicGroup} by hand: a manual clock, a timer table that {@link #sleep} fires
 * in deadline order, and the replies to parked requests collected by request id. No threads.
 */
final class GroupTestContext {
    static final long START_MS = 1_700_000_000_000L;
    static final int SESSION_MS = 10_000;
    static final int REBALANCE_MS = 30_000;

    final ClassicGroup group;
    final GroupConfig config;
    long nowMs = START_MS;
    private long nextRequestId = 1;
    private int nextSuffix = 1;
    private final Map<String, TimerOp.Schedule> timers = new LinkedHashMap<>();
    final Map<Long, JoinResponse> joinReplies = new HashMap<>();
    final Map<Long, SyncResponse> syncReplies = new HashMap<>();
    final List<GroupEvent> events = new ArrayList<>();

    GroupTestContext() {
        this(new GroupConfig(1_000, 60_000, 3_000, 4_096, Integer.MAX_VALUE, 60_000, 10_000));
    }

    GroupTestContext(GroupConfig config) {
        this.config = config;
        this.group = new ClassicGroup("g", config);
    }

    <R> R run(GroupCommand<R> command) {
        GroupResult<R> result = group.handle(command, nowMs);
        events.addAll(result.events());
        for (GroupReply reply : result.replies()) {
            if (reply instanceof GroupReply.ToJoin join) {
                joinReplies.put(join.requestId(), join.response());
            } else if (reply instanceof GroupReply.ToSync sync) {
                syncReplies.put(sync.requestId(), sync.response());
            }
        }
        for (TimerOp op : result.timers()) {
            if (op instanceof TimerOp.Schedule schedule) {
                timers.put(schedule.timer().key(), schedule);
            } else if (op instanceof TimerOp.Cancel cancel) {
                timers.remove(cancel.key());
            }
        }
        return result.response();
    }

    /** Moves time forward, firing every timer that falls due, in deadline order. */
    void sleep(long ms) {
        long target = nowMs + ms;
        while (true) {
            Optional<TimerOp.Schedule> next = timers.values().stream()
                    .filter(t -> t.deadlineMs() <= target)
                    .min(Comparator.comparingLong(TimerOp.Schedule::deadlineMs));
            if (next.isEmpty()) {
                break;
            }
            timers.remove(next.get().timer().key());
            nowMs = Math.max(nowMs, next.get().deadlineMs());
            run(new GroupCommand.FireTimer(next.get().timer()));
        }
        nowMs = target;
    }

    // Requests.

    JoinBuilder join() {
        return new JoinBuilder();
    }

    /** Joins a dynamic member the v4+ way (MEMBER_ID_REQUIRED, then again with the id); returns the parked request id. */
    long joinNew(String clientId) {
        long first = join().client(clientId).send();
        JoinResponse required = joinReply(first);
        if (required.error() != KafkaError.MEMBER_ID_REQUIRED) {
            throw new AssertionError("expected MEMBER_ID_REQUIRED, got " + required);
        }
        return join().member(required.memberId()).client(clientId).send();
    }

    JoinResponse joinReply(long requestId) {
        return joinReplies.get(requestId);
    }

    long sync(String memberId, int generation, Map<String, byte[]> assignments) {
        long requestId = nextRequestId++;
        run(new GroupCommand.Sync(requestId, memberId, null, generation, null, null, assignments));
        return requestId;
    }

    long syncStatic(String memberId, String instanceId, int generation, Map<String, byte[]> assignments) {
        long requestId = nextRequestId++;
        run(new GroupCommand.Sync(requestId, memberId, instanceId, generation, null, null, assignments));
        return requestId;
    }

    SyncResponse syncReply(long requestId) {
        return syncReplies.get(requestId);
    }

    KafkaError heartbeat(String memberId, int generation) {
        return run(new GroupCommand.Heartbeat(memberId, null, generation));
    }

    KafkaError heartbeat(String memberId, String instanceId, int generation) {
        return run(new GroupCommand.Heartbeat(memberId, instanceId, generation));
    }

    LeaveResult leave(String memberId) {
        return run(new GroupCommand.Leave(List.of(new GroupCommand.LeavingMember(memberId, null, "bye"))));
    }

    KafkaError validateCommit(String memberId, String instanceId, int generation) {
        return run(new GroupCommand.ValidateOffsetCommit(memberId, instanceId, generation));
    }

    /** Brings {@code clients} into a stable group: join, initial delay, leader syncs, followers sync. Returns member ids in join order. */
    List<String> stableGroup(String... clients) {
        List<Long> joins = new ArrayList<>();
        for (String client : clients) {
            joins.add(joinNew(client));
        }
        sleep(2L * config.initialRebalanceDelayMs()); // later arrivals extend the initial delay once
        List<String> members = new ArrayList<>();
        for (long j : joins) {
            members.add(joinReply(j).memberId());
        }
        int generation = joinReply(joins.get(0)).generationId();
        Map<String, byte[]> assignment = new HashMap<>();
        members.forEach(m -> assignment.put(m, bytes("assigned-to-" + m)));
        for (String m : members) {
            sync(m, generation, group.isLeader(m) ? assignment : Map.of());
        }
        if (group.state() != GroupState.STABLE) {
            throw new AssertionError("group not stable: " + group);
        }
        return members;
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** A consumer subscription (version 0 layout) naming {@code topics}. */
    static byte[] subscription(String... topics) {
        int size = 2 + 4;
        for (String t : topics) {
            size += 2 + t.getBytes(StandardCharsets.UTF_8).length;
        }
        ByteBuffer b = ByteBuffer.allocate(size + 4);
        b.putShort((short) 0).putInt(topics.length);
        for (String t : topics) {
            byte[] name = t.getBytes(StandardCharsets.UTF_8);
            b.putShort((short) name.length).put(name);
        }
        b.putInt(-1); // null user data
        return b.array();
    }

    /** A JoinGroup under construction; defaults: a v4+ consumer with the range protocol. */
    final class JoinBuilder {
        private String memberId = "";
        private String instanceId;
        private boolean requireKnownMemberId = true;
        private boolean skipAssignment = true;
        private String clientId = "client";
        private int sessionMs = SESSION_MS;
        private int rebalanceMs = REBALANCE_MS;
        private String protocolType = "consumer";
        private List<Protocol> protocols = List.of(new Protocol("range", subscription("t")));

        JoinBuilder member(String id) {
            memberId = id;
            return this;
        }

        JoinBuilder instance(String id) {
            instanceId = id;
            return this;
        }

        /** A JoinGroup before v4: no MEMBER_ID_REQUIRED round trip. */
        JoinBuilder legacy() {
            requireKnownMemberId = false;
            return this;
        }

        /** A JoinGroup before v9: no skip_assignment. */
        JoinBuilder beforeV9() {
            skipAssignment = false;
            return this;
        }

        JoinBuilder client(String id) {
            clientId = id;
            return this;
        }

        JoinBuilder session(int ms) {
            sessionMs = ms;
            return this;
        }

        JoinBuilder rebalance(int ms) {
            rebalanceMs = ms;
            return this;
        }

        JoinBuilder protocolType(String type) {
            protocolType = type;
            return this;
        }

        JoinBuilder protocols(Protocol... list) {
            protocols = List.of(list);
            return this;
        }

        long send() {
            long requestId = nextRequestId++;
            run(new GroupCommand.Join(requestId, memberId, instanceId, requireKnownMemberId && instanceId == null,
                    skipAssignment, clientId, "/127.0.0.1", rebalanceMs, sessionMs, protocolType, protocols,
                    "id" + nextSuffix++, null));
            return requestId;
        }
    }
}
