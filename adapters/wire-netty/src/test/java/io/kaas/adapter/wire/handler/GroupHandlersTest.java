package io.kaas.adapter.wire.handler;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.adapter.wire.dispatch.ApiHandler;
import io.kaas.adapter.wire.dispatch.RequestContext;
import io.kaas.adapter.wire.mapping.Access;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.security.KafkaPrincipal;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Set;
import org.apache.kafka.common.message.DeleteGroupsRequestData;
import org.apache.kafka.common.message.DeleteGroupsResponseData;
import org.apache.kafka.common.message.DescribeGroupsRequestData;
import org.apache.kafka.common.message.DescribeGroupsResponseData;
import org.apache.kafka.common.message.HeartbeatRequestData;
import org.apache.kafka.common.message.HeartbeatResponseData;
import org.apache.kafka.common.message.JoinGroupRequestData;
import org.apache.kafka.common.message.JoinGroupResponseData;
import org.apache.kafka.common.message.LeaveGroupRequestData;
import org.apache.kafka.common.message.LeaveGroupResponseData;
import org.apache.kafka.common.message.ListGroupsRequestData;
import org.apache.kafka.common.message.ListGroupsResponseData;
import org.apache.kafka.common.message.OffsetCommitRequestData;
import org.apache.kafka.common.message.OffsetCommitResponseData;
import org.apache.kafka.common.message.OffsetDeleteRequestData;
import org.apache.kafka.common.message.OffsetDeleteResponseData;
import org.apache.kafka.common.message.OffsetFetchRequestData;
import org.apache.kafka.common.message.OffsetFetchResponseData;
import org.apache.kafka.common.message.SyncGroupRequestData;
import org.apache.kafka.common.message.SyncGroupResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.protocol.MessageUtil;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.OffsetFetchResponse;
import org.apache.kafka.common.requests.RequestHeader;
import org.junit.jupiter.api.Test;

/**
 * Every version of every group API, through its handler: the request is serialised and parsed by
 * kafka-clients at that version, and the response must serialise at that version and read back.
 */
class GroupHandlersTest {
    private final RecordingGroupCoordinator groups = new RecordingGroupCoordinator();

    @SuppressWarnings("unchecked")
    private <Q extends AbstractRequest> ApiMessage roundTrip(ApiKeys key, short version, ApiMessage request,
                                                              ApiHandler<Q> handler) {
        Q parsed = (Q) AbstractRequest.parseRequest(key, version, MessageUtil.toByteBuffer(request, version)).request;
        RequestContext context = new RequestContext(new RequestHeader(key, version, "client-1", 7),
                new InetSocketAddress("127.0.0.1", 40_000), Runnable::run, KafkaPrincipal.ANONYMOUS);
        AbstractResponse response = handler.handle(context, parsed).toCompletableFuture().join();
        ByteBuffer bytes = MessageUtil.toByteBuffer(response.data(), version);
        return AbstractResponse.parseResponse(key, bytes, version).data();
    }

    @Test
    void joinGroupAtEveryVersion() {
        for (short v = 0; v <= ApiKeys.JOIN_GROUP.latestVersion(); v++) {
            JoinGroupRequestData request = new JoinGroupRequestData().setGroupId("g").setMemberId("").setSessionTimeoutMs(10_000)
                    .setRebalanceTimeoutMs(v >= 1 ? 60_000 : -1).setProtocolType("consumer");
            request.protocols().add(new JoinGroupRequestData.JoinGroupRequestProtocol().setName("range").setMetadata(new byte[] {1}));
            if (v >= 5) {
                request.setGroupInstanceId(v % 2 == 0 ? "instance" : null);
            }
            if (v >= 8) {
                request.setReason("because");
            }
            JoinGroupResponseData response = (JoinGroupResponseData) roundTrip(ApiKeys.JOIN_GROUP, v, request,
                    new JoinGroupHandler(groups, Access.ALLOW_ALL));

            assertThat(response.errorCode()).isZero();
            assertThat(response.memberId()).isEqualTo("m-1");
            assertThat(response.members()).hasSize(1);
            assertThat(groups.join.rebalanceTimeoutMs()).as("v" + v).isEqualTo(v >= 1 ? 60_000 : 10_000);
            assertThat(groups.join.requireKnownMemberId()).as("v" + v).isEqualTo(v >= 4 && groups.join.groupInstanceId() == null);
            assertThat(groups.join.supportSkipAssignment()).as("v" + v).isEqualTo(v >= 9);
            assertThat(groups.join.clientId()).isEqualTo("client-1");
            assertThat(groups.join.clientHost()).isEqualTo("/127.0.0.1");
            assertThat(response.protocolName()).as("v" + v).isEqualTo("range");
            assertThat(response.skipAssignment()).isEqualTo(v >= 9);
        }
    }

    @Test
    void syncGroupAtEveryVersion_andV5NeedsTheProtocol() {
        for (short v = 0; v <= ApiKeys.SYNC_GROUP.latestVersion(); v++) {
            SyncGroupRequestData request = new SyncGroupRequestData().setGroupId("g").setGenerationId(3).setMemberId("m-1");
            request.assignments().add(new SyncGroupRequestData.SyncGroupRequestAssignment().setMemberId("m-1")
                    .setAssignment(new byte[] {7}));
            if (v >= 5) {
                request.setProtocolType("consumer").setProtocolName("range");
            }
            SyncGroupResponseData response = (SyncGroupResponseData) roundTrip(ApiKeys.SYNC_GROUP, v, request,
                    new SyncGroupHandler(groups, Access.ALLOW_ALL));
            assertThat(response.errorCode()).isZero();
            assertThat(response.assignment()).containsExactly(9);
            assertThat(groups.sync.assignments().get("m-1")).containsExactly(7);
            assertThat(groups.sync.protocolName()).isEqualTo(v >= 5 ? "range" : null);
        }
        SyncGroupRequestData missing = new SyncGroupRequestData().setGroupId("g").setMemberId("m-1").setProtocolType("consumer");
        SyncGroupResponseData refused = (SyncGroupResponseData) roundTrip(ApiKeys.SYNC_GROUP, (short) 5, missing,
                new SyncGroupHandler(groups, Access.ALLOW_ALL));
        assertThat(refused.errorCode()).isEqualTo(Errors.INCONSISTENT_GROUP_PROTOCOL.code());
    }

    @Test
    void heartbeatAtEveryVersion() {
        for (short v = 0; v <= ApiKeys.HEARTBEAT.latestVersion(); v++) {
            HeartbeatRequestData request = new HeartbeatRequestData().setGroupId("g").setMemberId("m").setGenerationId(1);
            ApiMessage response = roundTrip(ApiKeys.HEARTBEAT, v, request, new HeartbeatHandler(groups, Access.ALLOW_ALL));
            assertThat(((HeartbeatResponseData) response).errorCode())
                    .isEqualTo(Errors.REBALANCE_IN_PROGRESS.code());
        }
    }

    @Test
    void leaveGroupAtEveryVersion_oldVersionsCarryTheMembersErrorOnTop() {
        groups.leaveError = KafkaError.UNKNOWN_MEMBER_ID;
        for (short v = 0; v <= ApiKeys.LEAVE_GROUP.latestVersion(); v++) {
            LeaveGroupRequestData request = new LeaveGroupRequestData().setGroupId("g");
            if (v <= 2) {
                request.setMemberId("m-1");
            } else {
                request.members().add(new LeaveGroupRequestData.MemberIdentity().setMemberId("").setGroupInstanceId("i")
                        .setReason(v >= 5 ? "shutting down" : null));
            }
            LeaveGroupResponseData response = (LeaveGroupResponseData) roundTrip(ApiKeys.LEAVE_GROUP, v, request,
                    new LeaveGroupHandler(groups, Access.ALLOW_ALL));
            if (v <= 2) {
                assertThat(response.errorCode()).isEqualTo(Errors.UNKNOWN_MEMBER_ID.code());
                assertThat(groups.leaving).extracting(m -> m.memberId()).containsExactly("m-1");
            } else {
                assertThat(response.errorCode()).isZero();
                assertThat(response.members()).singleElement().satisfies(m -> {
                    assertThat(m.groupInstanceId()).isEqualTo("i");
                    assertThat(m.errorCode()).isEqualTo(Errors.UNKNOWN_MEMBER_ID.code());
                });
            }
        }
    }

    @Test
    void offsetCommitAtEveryVersion() {
        for (short v = 0; v <= ApiKeys.OFFSET_COMMIT.latestVersion(); v++) {
            OffsetCommitRequestData request = new OffsetCommitRequestData().setGroupId("g");
            if (v >= 1) {
                request.setGenerationIdOrMemberEpoch(4).setMemberId("m-1");
            }
            OffsetCommitRequestData.OffsetCommitRequestPartition partition = new OffsetCommitRequestData.OffsetCommitRequestPartition()
                    .setPartitionIndex(2).setCommittedOffset(100).setCommittedMetadata("meta");
            if (v >= 6) {
                partition.setCommittedLeaderEpoch(8);
            }
            if (v == 1) {
                partition.setCommitTimestamp(1_234L);
            }
            if (v >= 2 && v <= 4) {
                request.setRetentionTimeMs(60_000L);
            }
            request.topics().add(new OffsetCommitRequestData.OffsetCommitRequestTopic().setName("t").setPartitions(List.of(partition)));
            var response = (OffsetCommitResponseData) roundTrip(ApiKeys.OFFSET_COMMIT, v,
                    request, new OffsetCommitHandler(groups, Access.ALLOW_ALL));

            assertThat(response.topics()).singleElement().satisfies(t -> assertThat(t.partitions()).singleElement()
                    .satisfies(p -> assertThat(p.partitionIndex()).isEqualTo(2)));
            assertThat(groups.commit.generationId()).as("v" + v).isEqualTo(v >= 1 ? 4 : -1);
            assertThat(groups.commit.offsets().get(0).leaderEpoch()).isEqualTo(v >= 6 ? 8 : -1);
            assertThat(groups.commit.offsets().get(0).metadata()).isEqualTo("meta");
            assertThat(groups.commit.offsets().get(0).commitTimestampMs()).as("v1's own commit time")
                    .isEqualTo(v == 1 ? 1_234L : -1L);
            assertThat(groups.commit.retentionTimeMs()).as("v2-4's retention time")
                    .isEqualTo(v >= 2 && v <= 4 ? 60_000L : -1L);
        }
    }

    @Test
    void offsetFetchAtEveryVersion_allPartitionsFromV2_manyGroupsFromV8() {
        for (short v = 0; v <= ApiKeys.OFFSET_FETCH.latestVersion(); v++) {
            OffsetFetchRequestData request = new OffsetFetchRequestData();
            boolean all = v >= 2 && v % 2 == 0; // every committed partition (null topics) from v2
            if (v >= 8) {
                request.groups().add(new OffsetFetchRequestData.OffsetFetchRequestGroup().setGroupId("g")
                        .setTopics(all ? null : List.of(new OffsetFetchRequestData.OffsetFetchRequestTopics()
                                .setName("t").setPartitionIndexes(List.of(0, 1)))));
                request.groups().add(new OffsetFetchRequestData.OffsetFetchRequestGroup().setGroupId("elsewhere")
                        .setTopics(List.of()));
                request.setRequireStable(true);
            } else {
                request.setGroupId("g").setTopics(all ? null : List.of(new OffsetFetchRequestData.OffsetFetchRequestTopic()
                        .setName("t").setPartitionIndexes(List.of(0, 1))));
                if (v >= 7) {
                    request.setRequireStable(true);
                }
            }
            ApiMessage data = roundTrip(ApiKeys.OFFSET_FETCH, v, request, new OffsetFetchHandler(groups, Access.ALLOW_ALL));
            OffsetFetchResponse response = new OffsetFetchResponse((OffsetFetchResponseData) data, v);

            int expected = all ? 1 : 2;
            assertThat(response.partitionDataMap("g")).as("v" + v).hasSize(expected)
                    .allSatisfy((tp, p) -> assertThat(p.offset).isEqualTo(42));
            assertThat(groups.requireStable).isEqualTo(v >= 7);
            if (v >= 8) {
                assertThat(response.groupLevelError("elsewhere")).isEqualTo(Errors.NOT_COORDINATOR);
            }
            if (v >= 5) {
                assertThat(response.partitionDataMap("g").values()).allSatisfy(p -> assertThat(p.leaderEpoch).contains(5));
            }
        }
    }

    @Test
    void adminApisAtEveryVersion() {
        for (short v = 0; v <= ApiKeys.LIST_GROUPS.latestVersion(); v++) {
            ListGroupsRequestData request = new ListGroupsRequestData();
            if (v >= 4) {
                request.setStatesFilter(List.of("Stable"));
            }
            var response = (ListGroupsResponseData) roundTrip(ApiKeys.LIST_GROUPS, v, request,
                    new ListGroupsHandler(groups, Access.ALLOW_ALL));
            assertThat(response.groups()).singleElement().satisfies(g -> {
                assertThat(g.groupId()).isEqualTo("g");
                assertThat(g.protocolType()).isEqualTo("consumer");
            });
            assertThat(groups.statesFilter).isEqualTo(v >= 4 ? Set.of("Stable") : Set.of());
        }
        for (short v = 0; v <= ApiKeys.DESCRIBE_GROUPS.latestVersion(); v++) {
            DescribeGroupsRequestData request = new DescribeGroupsRequestData().setGroups(List.of("g", "elsewhere"))
                    .setIncludeAuthorizedOperations(v >= 3);
            DescribeGroupsResponseData response = (DescribeGroupsResponseData) roundTrip(ApiKeys.DESCRIBE_GROUPS, v, request,
                    new DescribeGroupsHandler(groups, Access.ALLOW_ALL));
            assertThat(response.groups()).hasSize(2);
            DescribeGroupsResponseData.DescribedGroup g = response.groups().get(0);
            assertThat(g.groupState()).isEqualTo("Stable");
            assertThat(g.members()).singleElement().satisfies(m -> assertThat(m.clientHost()).isEqualTo("/127.0.0.1"));
            if (v >= 3) {
                assertThat(g.authorizedOperations()).isNotEqualTo(Integer.MIN_VALUE).isPositive();
            }
            assertThat(response.groups().get(1).errorCode()).isEqualTo(Errors.NOT_COORDINATOR.code());
        }
        for (short v = 0; v <= ApiKeys.DELETE_GROUPS.latestVersion(); v++) {
            var response = (DeleteGroupsResponseData) roundTrip(ApiKeys.DELETE_GROUPS, v,
                    new DeleteGroupsRequestData().setGroupsNames(List.of("a", "b")), new DeleteGroupsHandler(groups, Access.ALLOW_ALL));
            assertThat(response.results()).hasSize(2).allSatisfy(r -> assertThat(r.errorCode())
                    .isEqualTo(Errors.NON_EMPTY_GROUP.code()));
        }
        OffsetDeleteRequestData delete = new OffsetDeleteRequestData().setGroupId("g");
        delete.topics().add(new OffsetDeleteRequestData.OffsetDeleteRequestTopic().setName("t")
                .setPartitions(List.of(new OffsetDeleteRequestData.OffsetDeleteRequestPartition().setPartitionIndex(0))));
        var deleted = (OffsetDeleteResponseData) roundTrip(ApiKeys.OFFSET_DELETE, (short) 0,
                delete, new OffsetDeleteHandler(groups, Access.ALLOW_ALL));
        assertThat(deleted.topics().find("t").partitions().find(0).errorCode()).isEqualTo(Errors.GROUP_SUBSCRIBED_TO_TOPIC.code());
        var unknown = (OffsetDeleteResponseData) roundTrip(ApiKeys.OFFSET_DELETE, (short) 0,
                delete.duplicate().setGroupId("unknown"), new OffsetDeleteHandler(groups, Access.ALLOW_ALL));
        assertThat(unknown.errorCode()).isEqualTo(Errors.GROUP_ID_NOT_FOUND.code());
        assertThat(unknown.topics()).isEmpty();
    }
}
