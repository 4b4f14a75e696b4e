package io.kaas.adapter.wire.handler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.kaas.adapter.wire.AccessControl;
import io.kaas.adapter.wire.KafkaApis;
import io.kaas.adapter.wire.support.HandlerTestBase;
import io.kaas.adapter.wire.support.InMemoryBroker;
import io.kaas.adapter.wire.support.TestRecords;
import io.kaas.adapter.wire.support.TxnDriver;
import io.kaas.adapter.wire.support.WireChannel;
import io.kaas.application.authorization.AclAdminService;
import io.kaas.application.authorization.AclAuthorizer;
import io.kaas.application.authorization.StoredAclWriter;
import io.kaas.application.port.out.AclStore;
import io.kaas.domain.security.AclBinding;
import io.kaas.domain.security.AclOperation;
import io.kaas.domain.security.AclPatternType;
import io.kaas.domain.security.AclPermission;
import io.kaas.domain.security.AclResourceType;
import io.kaas.domain.security.AclRules;
import io.kaas.domain.security.KafkaPrincipal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.common.ElectionType;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.message.AddOffsetsToTxnRequestData;
import org.apache.kafka.common.message.AddPartitionsToTxnRequestData;
import org.apache.kafka.common.message.AlterPartitionReassignmentsRequestData;
import org.apache.kafka.common.message.CreatePartitionsRequestData;
import org.apache.kafka.common.message.CreateTopicsRequestData;
import org.apache.kafka.common.message.DeleteGroupsRequestData;
import org.apache.kafka.common.message.DeleteRecordsRequestData;
import org.apache.kafka.common.message.DeleteTopicsRequestData;
import org.apache.kafka.common.message.DescribeClusterRequestData;
import org.apache.kafka.common.message.DescribeConfigsRequestData;
import org.apache.kafka.common.message.DescribeGroupsRequestData;
import org.apache.kafka.common.message.AlterReplicaLogDirsRequestData;
import org.apache.kafka.common.message.DescribeLogDirsRequestData;
import org.apache.kafka.common.message.DescribeProducersRequestData;
import org.apache.kafka.common.message.DescribeTransactionsRequestData;
import org.apache.kafka.common.message.EndTxnRequestData;
import org.apache.kafka.common.message.FetchRequestData;
import org.apache.kafka.common.message.FindCoordinatorRequestData;
import org.apache.kafka.common.message.IncrementalAlterConfigsRequestData;
import org.apache.kafka.common.message.InitProducerIdRequestData;
import org.apache.kafka.common.message.JoinGroupRequestData;
import org.apache.kafka.common.message.ListGroupsRequestData;
import org.apache.kafka.common.message.ListOffsetsRequestData;
import org.apache.kafka.common.message.ListPartitionReassignmentsRequestData;
import org.apache.kafka.common.message.ListTransactionsRequestData;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.message.MetadataResponseData;
import org.apache.kafka.common.message.OffsetCommitRequestData;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.message.TxnOffsetCommitRequestData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.CompressionType;
import org.apache.kafka.common.record.MemoryRecords;
import org.apache.kafka.common.record.SimpleRecord;
import org.apache.kafka.common.requests.AddOffsetsToTxnRequest;
import org.apache.kafka.common.requests.AddOffsetsToTxnResponse;
import org.apache.kafka.common.requests.AddPartitionsToTxnRequest;
import org.apache.kafka.common.requests.AddPartitionsToTxnResponse;
import org.apache.kafka.common.requests.AlterPartitionReassignmentsRequest;
import org.apache.kafka.common.requests.AlterPartitionReassignmentsResponse;
import org.apache.kafka.common.requests.CreateAclsRequest;
import org.apache.kafka.common.requests.CreateAclsResponse;
import org.apache.kafka.common.requests.CreatePartitionsRequest;
import org.apache.kafka.common.requests.CreatePartitionsResponse;
import org.apache.kafka.common.requests.CreateTopicsRequest;
import org.apache.kafka.common.requests.CreateTopicsResponse;
import org.apache.kafka.common.requests.DeleteAclsRequest;
import org.apache.kafka.common.requests.DeleteAclsResponse;
import org.apache.kafka.common.requests.DeleteGroupsRequest;
import org.apache.kafka.common.requests.DeleteGroupsResponse;
import org.apache.kafka.common.requests.DeleteRecordsRequest;
import org.apache.kafka.common.requests.DeleteRecordsResponse;
import org.apache.kafka.common.requests.DeleteTopicsRequest;
import org.apache.kafka.common.requests.DeleteTopicsResponse;
import org.apache.kafka.common.requests.DescribeAclsRequest;
import org.apache.kafka.common.requests.DescribeAclsResponse;
import org.apache.kafka.common.requests.DescribeClusterRequest;
import org.apache.kafka.common.requests.DescribeClusterResponse;
import org.apache.kafka.common.requests.DescribeConfigsRequest;
import org.apache.kafka.common.requests.DescribeConfigsResponse;
import org.apache.kafka.common.requests.DescribeGroupsRequest;
import org.apache.kafka.common.requests.DescribeGroupsResponse;
import org.apache.kafka.common.requests.AlterReplicaLogDirsRequest;
import org.apache.kafka.common.requests.AlterReplicaLogDirsResponse;
import org.apache.kafka.common.requests.DescribeLogDirsRequest;
import org.apache.kafka.common.requests.DescribeLogDirsResponse;
import org.apache.kafka.common.requests.DescribeProducersRequest;
import org.apache.kafka.common.requests.DescribeProducersResponse;
import org.apache.kafka.common.requests.DescribeTransactionsRequest;
import org.apache.kafka.common.requests.DescribeTransactionsResponse;
import org.apache.kafka.common.requests.ElectLeadersRequest;
import org.apache.kafka.common.requests.ElectLeadersResponse;
import org.apache.kafka.common.requests.EndTxnRequest;
import org.apache.kafka.common.requests.EndTxnResponse;
import org.apache.kafka.common.requests.FetchRequest;
import org.apache.kafka.common.requests.FetchResponse;
import org.apache.kafka.common.requests.FindCoordinatorRequest;
import org.apache.kafka.common.requests.FindCoordinatorResponse;
import org.apache.kafka.common.requests.IncrementalAlterConfigsRequest;
import org.apache.kafka.common.requests.IncrementalAlterConfigsResponse;
import org.apache.kafka.common.requests.InitProducerIdRequest;
import org.apache.kafka.common.requests.InitProducerIdResponse;
import org.apache.kafka.common.requests.JoinGroupRequest;
import org.apache.kafka.common.requests.JoinGroupResponse;
import org.apache.kafka.common.requests.ListGroupsRequest;
import org.apache.kafka.common.requests.ListGroupsResponse;
import org.apache.kafka.common.requests.ListOffsetsRequest;
import org.apache.kafka.common.requests.ListOffsetsResponse;
import org.apache.kafka.common.requests.ListPartitionReassignmentsRequest;
import org.apache.kafka.common.requests.ListPartitionReassignmentsResponse;
import org.apache.kafka.common.requests.ListTransactionsRequest;
import org.apache.kafka.common.requests.ListTransactionsResponse;
import org.apache.kafka.common.requests.MetadataRequest;
import org.apache.kafka.common.requests.MetadataResponse;
import org.apache.kafka.common.requests.OffsetCommitRequest;
import org.apache.kafka.common.requests.OffsetCommitResponse;
import org.apache.kafka.common.requests.OffsetFetchRequest;
import org.apache.kafka.common.requests.OffsetFetchResponse;
import org.apache.kafka.common.requests.ProduceRequest;
import org.apache.kafka.common.requests.ProduceResponse;
import org.apache.kafka.common.requests.TransactionResult;
import org.apache.kafka.common.requests.TxnOffsetCommitRequest;
import org.apache.kafka.common.requests.TxnOffsetCommitResponse;
import org.apache.kafka.common.requests.WriteTxnMarkersRequest;
import org.apache.kafka.common.requests.WriteTxnMarkersResponse;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What each API checks under ACLs, and the error it answers, as Apache 3.7's KafkaApis: the same in-memory
 * broker served twice, {@link #wire} with everything allowed (to set things up) and {@link #secured} with the
 * ACLs a test grants to the connection's principal (ANONYMOUS).
 */
class AuthorizationHandlersTest extends HandlerTestBase {
    private static final KafkaPrincipal CLIENT = KafkaPrincipal.ANONYMOUS;

    private final MemoryAclStore store = new MemoryAclStore();
    private AclRules rules = AclRules.EMPTY;
    private WireChannel secured;

    @BeforeEach
    void serveWithAcls() {
        AclAuthorizer authorizer = new AclAuthorizer(Set.of(), () -> rules);
        AclAdminService acls = new AclAdminService(() -> rules, new StoredAclWriter(store),
                () -> rules = AclRules.of(store.read()));
        secured = new WireChannel(KafkaApis.registry(broker.useCases(), new AccessControl(authorizer, acls)));
        broker.createTopic("orders", 1);
        broker.createTopic("audit", 1);
    }

    @AfterEach
    void closeSecured() {
        secured.close();
    }

    private void grant(AclResourceType type, String name, AclOperation... operations) {
        List<AclBinding> acls = new ArrayList<>(store.read());
        for (AclOperation operation : operations) {
            acls.add(new AclBinding(CLIENT, "*", type, name, AclPatternType.LITERAL, operation, AclPermission.ALLOW));
        }
        store.write(acls);
        rules = AclRules.of(acls);
    }

    // ---------------------------------------------------------------- data

    @Test
    void produceNeedsWriteOnEachTopic() {
        grant(AclResourceType.TOPIC, "orders", AclOperation.WRITE);

        ProduceResponse allowed = secured.roundTrip(TestRecords.produce((short) 9, (short) 1, "orders", 0,
                TestRecords.batch(1L, "a")));
        ProduceResponse refused = secured.roundTrip(TestRecords.produce((short) 9, (short) 1, "audit", 0,
                TestRecords.batch(1L, "a")));

        assertThat(allowed.data().responses().iterator().next().partitionResponses().get(0).errorCode())
                .isEqualTo(Errors.NONE.code());
        assertThat(refused.data().responses().iterator().next().partitionResponses().get(0).errorCode())
                .isEqualTo(Errors.TOPIC_AUTHORIZATION_FAILED.code());
        assertThat(broker.topics().logs()).isNotEmpty();
    }

    @Test
    void aTransactionalBatchNeedsWriteOnTheTransactionalId() {
        grant(AclResourceType.TOPIC, "orders", AclOperation.WRITE);
        MemoryRecords transactional = MemoryRecords.withTransactionalRecords(CompressionType.NONE, 7L, (short) 0, 0,
                new SimpleRecord("x".getBytes()));
        ProduceRequest request = ProduceRequest.forCurrentMagic(new ProduceRequestData().setTransactionalId("tx-1")
                .setAcks((short) -1).setTimeoutMs(5_000).setTopicData(new ProduceRequestData.TopicProduceDataCollection(
                        List.of(new ProduceRequestData.TopicProduceData().setName("orders").setPartitionData(List.of(
                                new ProduceRequestData.PartitionProduceData().setIndex(0).setRecords(transactional))))
                                .iterator()))).build((short) 9);

        ProduceResponse response = secured.roundTrip(request);

        assertThat(response.data().responses().iterator().next().partitionResponses().get(0).errorCode())
                .isEqualTo(Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED.code());
    }

    @Test
    void fetchNeedsReadAndListOffsetsDescribe() {
        grant(AclResourceType.TOPIC, "orders", AclOperation.READ);
        FetchRequestData fetch = new FetchRequestData().setReplicaId(-1).setMaxWaitMs(0).setMaxBytes(1 << 20);
        for (String topic : List.of("orders", "audit")) {
            fetch.topics().add(new FetchRequestData.FetchTopic().setTopic(topic).setPartitions(List.of(
                    new FetchRequestData.FetchPartition().setPartition(0).setPartitionMaxBytes(1 << 20))));
        }
        FetchResponse fetched = secured.roundTrip(new FetchRequest(fetch, (short) 12));

        assertThat(fetched.data().responses()).extracting(t -> t.topic(), t -> t.partitions().get(0).errorCode())
                .containsExactlyInAnyOrder(tuple("orders", Errors.NONE.code()),
                        tuple("audit", Errors.TOPIC_AUTHORIZATION_FAILED.code()));

        ListOffsetsRequestData list = new ListOffsetsRequestData();
        for (String topic : List.of("orders", "audit")) {
            list.topics().add(new ListOffsetsRequestData.ListOffsetsTopic().setName(topic).setPartitions(List.of(
                    new ListOffsetsRequestData.ListOffsetsPartition().setPartitionIndex(0).setTimestamp(-1L))));
        }
        ListOffsetsResponse offsets = secured.roundTrip(ListOffsetsRequest.Builder.forConsumer(false,
                IsolationLevel.READ_UNCOMMITTED, false).setTargetTimes(list.topics()).build((short) 7));
        assertThat(offsets.data().topics()).extracting(t -> t.name(), t -> t.partitions().get(0).errorCode())
                .containsExactly(tuple("orders", Errors.NONE.code()), tuple("audit", Errors.TOPIC_AUTHORIZATION_FAILED.code()));
    }

    // ---------------------------------------------------------------- metadata

    @Test
    void metadataHidesWhatThePrincipalMayNotDescribe() {
        grant(AclResourceType.TOPIC, "orders", AclOperation.READ);

        MetadataResponseData all = secured.<MetadataResponse>roundTrip(MetadataRequest.Builder.allTopics().build((short) 12))
                .data();
        assertThat(all.topics()).extracting(MetadataResponseData.MetadataResponseTopic::name).containsExactly("orders");

        MetadataResponseData named = secured.<MetadataResponse>roundTrip(new MetadataRequest.Builder(
                List.of("orders", "audit", "missing"), false).build((short) 11)).data();
        assertThat(named.topics()).extracting(MetadataResponseData.MetadataResponseTopic::name, t -> t.errorCode())
                .containsExactly(tuple("orders", Errors.NONE.code()),
                        tuple("audit", Errors.TOPIC_AUTHORIZATION_FAILED.code()),
                        tuple("missing", Errors.TOPIC_AUTHORIZATION_FAILED.code()));
    }

    @Test
    void autoCreationNeedsCreateOnTheClusterOrTheTopic() {
        grant(AclResourceType.TOPIC, "fresh", AclOperation.DESCRIBE);
        grant(AclResourceType.TOPIC, "granted", AclOperation.DESCRIBE, AclOperation.CREATE);

        MetadataResponseData data = secured.<MetadataResponse>roundTrip(new MetadataRequest.Builder(
                List.of("fresh", "granted"), true).build((short) 11)).data();

        assertThat(data.topics()).extracting(MetadataResponseData.MetadataResponseTopic::name, t -> t.errorCode())
                .containsExactly(tuple("granted", Errors.NONE.code()),
                        tuple("fresh", Errors.TOPIC_AUTHORIZATION_FAILED.code()));
        assertThat(broker.topics().byName("fresh")).isEmpty();
        assertThat(broker.topics().byName("granted")).isPresent();
    }

    @Test
    void withoutBrokerAutoCreationAnUnknownDescribableTopicIsUnknownNotRefused() {
        InMemoryBroker noAutoCreate = new InMemoryBroker(false);
        grant(AclResourceType.TOPIC, "fresh", AclOperation.DESCRIBE);
        try (WireChannel channel = new WireChannel(KafkaApis.registry(noAutoCreate.useCases(), new AccessControl(
                new AclAuthorizer(Set.of(), () -> rules), null)))) {
            MetadataResponseData data = channel.<MetadataResponse>roundTrip(new MetadataRequest.Builder(
                    List.of("fresh"), true).build((short) 11)).data();

            assertThat(data.topics()).extracting(t -> t.errorCode())
                    .containsExactly(Errors.UNKNOWN_TOPIC_OR_PARTITION.code());
        }
    }

    @Test
    void authorizedOperationsAreWhatTheAclsAllow() {
        grant(AclResourceType.TOPIC, "orders", AclOperation.ALTER_CONFIGS, AclOperation.WRITE);
        grant(AclResourceType.CLUSTER, AclResourceType.CLUSTER_NAME, AclOperation.ALTER);

        MetadataResponseData data = secured.<MetadataResponse>roundTrip(new MetadataRequest(new MetadataRequestData()
                .setTopics(List.of(new MetadataRequestData.MetadataRequestTopic().setName("orders")))
                .setIncludeTopicAuthorizedOperations(true).setIncludeClusterAuthorizedOperations(true), (short) 10)).data();

        assertThat(Utils.from32BitField(data.topics().iterator().next().topicAuthorizedOperations())).containsExactlyInAnyOrder(
                org.apache.kafka.common.acl.AclOperation.WRITE.code(), org.apache.kafka.common.acl.AclOperation.DESCRIBE.code(),
                org.apache.kafka.common.acl.AclOperation.ALTER_CONFIGS.code(),
                org.apache.kafka.common.acl.AclOperation.DESCRIBE_CONFIGS.code());
        assertThat(data.clusterAuthorizedOperations()).as("ALTER implies DESCRIBE, which shows the rest")
                .isEqualTo(Utils.to32BitField(Set.of(org.apache.kafka.common.acl.AclOperation.ALTER.code(),
                        org.apache.kafka.common.acl.AclOperation.DESCRIBE.code())));

        store.write(List.of());
        rules = AclRules.EMPTY;
        DescribeClusterResponse cluster = secured.roundTrip(new DescribeClusterRequest.Builder(
                new DescribeClusterRequestData().setIncludeClusterAuthorizedOperations(true)).build((short) 0));
        assertThat(cluster.data().clusterAuthorizedOperations()).as("without DESCRIBE on the cluster, as Apache").isZero();
    }

    // ---------------------------------------------------------------- topic and config admin

    @Test
    void topicAdminNeedsCreateDeleteAndAlter() {
        grant(AclResourceType.TOPIC, "new-a", AclOperation.CREATE);
        CreateTopicsRequestData create = new CreateTopicsRequestData().setTimeoutMs(5_000);
        for (String name : List.of("new-a", "new-b")) {
            create.topics().add(new CreateTopicsRequestData.CreatableTopic().setName(name).setNumPartitions(1)
                    .setReplicationFactor((short) 1));
        }
        CreateTopicsResponse created = secured.roundTrip(new CreateTopicsRequest.Builder(create).build((short) 7));
        assertThat(created.data().topics()).extracting(t -> t.name(), t -> t.errorCode(), t -> t.topicConfigErrorCode())
                .containsExactly(tuple("new-a", Errors.NONE.code(), Errors.TOPIC_AUTHORIZATION_FAILED.code()),
                        tuple("new-b", Errors.TOPIC_AUTHORIZATION_FAILED.code(), Errors.NONE.code()));

        grant(AclResourceType.TOPIC, "orders", AclOperation.ALTER);
        CreatePartitionsRequestData grow = new CreatePartitionsRequestData().setTimeoutMs(5_000);
        for (String name : List.of("orders", "audit")) {
            grow.topics().add(new CreatePartitionsRequestData.CreatePartitionsTopic().setName(name).setCount(2).setAssignments(null));
        }
        CreatePartitionsResponse grown = secured.roundTrip(new CreatePartitionsRequest.Builder(grow).build((short) 3));
        assertThat(grown.data().results()).extracting(r -> r.name(), r -> r.errorCode())
                .containsExactly(tuple("orders", Errors.NONE.code()), tuple("audit", Errors.TOPIC_AUTHORIZATION_FAILED.code()));

        grant(AclResourceType.TOPIC, "orders", AclOperation.DELETE);
        DeleteRecordsRequestData trim = new DeleteRecordsRequestData().setTimeoutMs(5_000);
        for (String name : List.of("orders", "audit")) {
            trim.topics().add(new DeleteRecordsRequestData.DeleteRecordsTopic().setName(name).setPartitions(List.of(
                    new DeleteRecordsRequestData.DeleteRecordsPartition().setPartitionIndex(0).setOffset(0))));
        }
        DeleteRecordsResponse trimmed = secured.roundTrip(new DeleteRecordsRequest.Builder(trim).build((short) 2));
        assertThat(trimmed.data().topics()).extracting(t -> t.name(), t -> t.partitions().iterator().next().errorCode())
                .containsExactlyInAnyOrder(tuple("orders", Errors.NONE.code()),
                        tuple("audit", Errors.TOPIC_AUTHORIZATION_FAILED.code()));

        DeleteTopicsRequestData delete = new DeleteTopicsRequestData().setTimeoutMs(5_000).setTopics(List.of(
                new DeleteTopicsRequestData.DeleteTopicState().setName("orders"),
                new DeleteTopicsRequestData.DeleteTopicState().setName("audit"),
                new DeleteTopicsRequestData.DeleteTopicState().setTopicId(idOf("audit"))));
        DeleteTopicsResponse deleted = secured.roundTrip(new DeleteTopicsRequest.Builder(delete).build((short) 6));
        assertThat(deleted.data().responses()).extracting(r -> r.errorCode()).containsExactly(Errors.NONE.code(),
                Errors.TOPIC_AUTHORIZATION_FAILED.code(), Errors.TOPIC_AUTHORIZATION_FAILED.code());
        assertThat(broker.topics().byName("audit")).isPresent();
    }

    private Uuid idOf(String topic) {
        UUID id = broker.topics().byName(topic).orElseThrow().id();
        return new Uuid(id.getMostSignificantBits(), id.getLeastSignificantBits());
    }

    @Test
    void configsNeedDescribeOrAlterConfigsOnTheTopicOrTheCluster() {
        grant(AclResourceType.TOPIC, "orders", AclOperation.ALTER_CONFIGS);
        DescribeConfigsRequestData describe = new DescribeConfigsRequestData().setResources(List.of(
                new DescribeConfigsRequestData.DescribeConfigsResource().setResourceType(ConfigResource.Type.TOPIC.id())
                        .setResourceName("orders"),
                new DescribeConfigsRequestData.DescribeConfigsResource().setResourceType(ConfigResource.Type.TOPIC.id())
                        .setResourceName("audit"),
                new DescribeConfigsRequestData.DescribeConfigsResource().setResourceType(ConfigResource.Type.BROKER.id())
                        .setResourceName("0")));
        DescribeConfigsResponse described = secured.roundTrip(new DescribeConfigsRequest.Builder(describe).build((short) 4));
        assertThat(described.data().results()).extracting(r -> r.resourceName(), r -> r.errorCode())
                .containsExactly(tuple("orders", Errors.NONE.code()), tuple("audit", Errors.TOPIC_AUTHORIZATION_FAILED.code()),
                        tuple("0", Errors.CLUSTER_AUTHORIZATION_FAILED.code()));
        assertThat(described.data().results().get(0).configs()).isNotEmpty();
        assertThat(described.data().results().get(1).configs()).isEmpty();

        IncrementalAlterConfigsRequestData alter = new IncrementalAlterConfigsRequestData();
        for (String name : List.of("orders", "audit")) {
            alter.resources().add(new IncrementalAlterConfigsRequestData.AlterConfigsResource()
                    .setResourceType(ConfigResource.Type.TOPIC.id()).setResourceName(name)
                    .setConfigs(new IncrementalAlterConfigsRequestData.AlterableConfigCollection(List.of(
                            new IncrementalAlterConfigsRequestData.AlterableConfig().setName("retention.ms")
                                    .setValue("1000").setConfigOperation((byte) 0)).iterator())));
        }
        IncrementalAlterConfigsResponse altered = secured.roundTrip(
                new IncrementalAlterConfigsRequest.Builder(alter).build((short) 1));
        assertThat(altered.data().responses()).extracting(r -> r.resourceName(), r -> r.errorCode())
                .containsExactly(tuple("orders", Errors.NONE.code()), tuple("audit", Errors.TOPIC_AUTHORIZATION_FAILED.code()));
    }

    // ---------------------------------------------------------------- groups

    @Test
    void groupApisNeedTheirGroupOperations() {
        FindCoordinatorResponse coordinator = secured.roundTrip(new FindCoordinatorRequest.Builder(
                new FindCoordinatorRequestData().setKeyType((byte) 0).setCoordinatorKeys(List.of("g"))).build((short) 4));
        assertThat(coordinator.data().coordinators().get(0).errorCode()).isEqualTo(Errors.GROUP_AUTHORIZATION_FAILED.code());

        grant(AclResourceType.GROUP, "g", AclOperation.DESCRIBE);
        JoinGroupResponse joined = secured.roundTrip(new JoinGroupRequest.Builder(new JoinGroupRequestData()
                .setGroupId("g").setMemberId("").setProtocolType("consumer").setSessionTimeoutMs(10_000)
                .setRebalanceTimeoutMs(10_000)).build((short) 9));
        assertThat(joined.data().errorCode()).isEqualTo(Errors.GROUP_AUTHORIZATION_FAILED.code());

        OffsetCommitResponse commitRefused = secured.roundTrip(commit("g"));
        assertThat(commitRefused.data().topics()).allSatisfy(t -> assertThat(t.partitions().get(0).errorCode())
                .isEqualTo(Errors.GROUP_AUTHORIZATION_FAILED.code()));

        grant(AclResourceType.GROUP, "g", AclOperation.READ);
        grant(AclResourceType.TOPIC, "orders", AclOperation.READ);
        OffsetCommitResponse committed = secured.roundTrip(commit("g"));
        assertThat(committed.data().topics()).extracting(t -> t.name(), t -> t.partitions().get(0).errorCode())
                .containsExactlyInAnyOrder(tuple("orders", Errors.NONE.code()),
                        tuple("audit", Errors.TOPIC_AUTHORIZATION_FAILED.code()));
        wire.roundTrip(commit("g")); // audit's offset too, committed by someone allowed

        Map<String, List<org.apache.kafka.common.TopicPartition>> allOfG = new HashMap<>();
        allOfG.put("g", null);
        OffsetFetchResponse everything = secured.roundTrip(new OffsetFetchRequest.Builder(allOfG, false, false)
                .build((short) 8));
        assertThat(everything.data().groups().get(0).topics()).as("topics it may not describe are left out")
                .extracting(t -> t.name()).containsExactly("orders");
        OffsetFetchResponse named = secured.roundTrip(new OffsetFetchRequest.Builder("g", false,
                List.of(new org.apache.kafka.common.TopicPartition("orders", 0),
                        new org.apache.kafka.common.TopicPartition("audit", 0)), false).build((short) 7));
        assertThat(named.data().topics()).extracting(t -> t.name(), t -> t.partitions().get(0).errorCode())
                .containsExactlyInAnyOrder(tuple("orders", Errors.NONE.code()),
                        tuple("audit", Errors.TOPIC_AUTHORIZATION_FAILED.code()));

        wire.roundTrip(commit("hidden"));
        ListGroupsResponse listed = secured.roundTrip(new ListGroupsRequest.Builder(new ListGroupsRequestData())
                .build((short) 4));
        assertThat(listed.data().groups()).extracting(g -> g.groupId()).containsExactly("g");

        DescribeGroupsResponse described = secured.roundTrip(new DescribeGroupsRequest.Builder(new DescribeGroupsRequestData()
                .setGroups(List.of("g", "hidden")).setIncludeAuthorizedOperations(true)).build((short) 5));
        assertThat(described.data().groups()).extracting(g -> g.groupId(), g -> g.errorCode())
                .containsExactly(tuple("g", Errors.NONE.code()), tuple("hidden", Errors.GROUP_AUTHORIZATION_FAILED.code()));
        assertThat(Utils.from32BitField(described.data().groups().get(0).authorizedOperations())).containsExactlyInAnyOrder(
                org.apache.kafka.common.acl.AclOperation.READ.code(), org.apache.kafka.common.acl.AclOperation.DESCRIBE.code());

        DeleteGroupsResponse deleted = secured.roundTrip(new DeleteGroupsRequest.Builder(new DeleteGroupsRequestData()
                .setGroupsNames(List.of("hidden"))).build((short) 2));
        assertThat(deleted.data().results().iterator().next().errorCode()).isEqualTo(Errors.GROUP_AUTHORIZATION_FAILED.code());
    }

    private static OffsetCommitRequest commit(String group) {
        OffsetCommitRequestData data = new OffsetCommitRequestData().setGroupId(group).setGenerationIdOrMemberEpoch(-1)
                .setMemberId("");
        for (String topic : List.of("orders", "audit")) {
            data.topics().add(new OffsetCommitRequestData.OffsetCommitRequestTopic().setName(topic).setPartitions(List.of(
                    new OffsetCommitRequestData.OffsetCommitRequestPartition().setPartitionIndex(0).setCommittedOffset(0))));
        }
        return new OffsetCommitRequest.Builder(data).build((short) 8);
    }

    // ---------------------------------------------------------------- producers and transactions

    @Test
    void anIdempotentProducerNeedsIdempotentWriteOrWriteOnSomeTopic() {
        InitProducerIdRequest idempotent = new InitProducerIdRequest.Builder(new InitProducerIdRequestData()
                .setTransactionalId(null).setTransactionTimeoutMs(Integer.MAX_VALUE)).build((short) 4);
        assertThat(secured.<InitProducerIdResponse>roundTrip(idempotent).data().errorCode())
                .isEqualTo(Errors.CLUSTER_AUTHORIZATION_FAILED.code());

        grant(AclResourceType.TOPIC, "audit", AclOperation.WRITE);
        assertThat(secured.<InitProducerIdResponse>roundTrip(idempotent).data().errorCode()).isEqualTo(Errors.NONE.code());

        store.write(List.of());
        rules = AclRules.EMPTY;
        grant(AclResourceType.CLUSTER, AclResourceType.CLUSTER_NAME, AclOperation.IDEMPOTENT_WRITE);
        assertThat(secured.<InitProducerIdResponse>roundTrip(idempotent).data().errorCode()).isEqualTo(Errors.NONE.code());
    }

    @Test
    void transactionApisNeedWriteOnTheTransactionalIdAndTheirTopicsAndGroup() {
        TxnDriver txn = new TxnDriver(wire, "tx-1").init();
        InitProducerIdResponse init = secured.roundTrip(new InitProducerIdRequest.Builder(new InitProducerIdRequestData()
                .setTransactionalId("tx-1").setTransactionTimeoutMs(60_000)).build((short) 4));
        assertThat(init.data().errorCode()).isEqualTo(Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED.code());

        AddPartitionsToTxnRequest add = AddPartitionsToTxnRequest.Builder.forClient("tx-1", txn.producerId(), txn.epoch(),
                List.of(new org.apache.kafka.common.TopicPartition("orders", 0),
                        new org.apache.kafka.common.TopicPartition("audit", 0))).build((short) 3);
        AddPartitionsToTxnResponse noId = secured.roundTrip(add);
        assertThat(noId.errors().get(AddPartitionsToTxnResponse.V3_AND_BELOW_TXN_ID).values())
                .containsOnly(Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED);
        assertThat(secured.<EndTxnResponse>roundTrip(new EndTxnRequest.Builder(new EndTxnRequestData()
                .setTransactionalId("tx-1").setProducerId(txn.producerId()).setProducerEpoch(txn.epoch())
                .setCommitted(false)).build((short) 3)).data().errorCode())
                .isEqualTo(Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED.code());

        grant(AclResourceType.TRANSACTIONAL_ID, "tx-1", AclOperation.WRITE);
        grant(AclResourceType.TOPIC, "orders", AclOperation.WRITE);
        AddPartitionsToTxnResponse oneTopic = secured.roundTrip(add);
        assertThat(oneTopic.errors().get(AddPartitionsToTxnResponse.V3_AND_BELOW_TXN_ID)).containsOnly(
                Map.entry(new org.apache.kafka.common.TopicPartition("orders", 0), Errors.OPERATION_NOT_ATTEMPTED),
                Map.entry(new org.apache.kafka.common.TopicPartition("audit", 0), Errors.TOPIC_AUTHORIZATION_FAILED));

        AddOffsetsToTxnResponse offsets = secured.roundTrip(new AddOffsetsToTxnRequest.Builder(new AddOffsetsToTxnRequestData()
                .setTransactionalId("tx-1").setProducerId(txn.producerId()).setProducerEpoch(txn.epoch())
                .setGroupId("g")).build((short) 3));
        assertThat(offsets.data().errorCode()).isEqualTo(Errors.GROUP_AUTHORIZATION_FAILED.code());

        TxnOffsetCommitRequestData commit = new TxnOffsetCommitRequestData().setTransactionalId("tx-1").setGroupId("g")
                .setProducerId(txn.producerId()).setProducerEpoch(txn.epoch()).setTopics(List.of(
                        new TxnOffsetCommitRequestData.TxnOffsetCommitRequestTopic().setName("orders").setPartitions(List.of(
                                new TxnOffsetCommitRequestData.TxnOffsetCommitRequestPartition().setPartitionIndex(0)
                                        .setCommittedOffset(0)))));
        TxnOffsetCommitResponse txnCommit = secured.roundTrip(new TxnOffsetCommitRequest.Builder(commit).build((short) 3));
        assertThat(txnCommit.errors().values()).containsOnly(Errors.GROUP_AUTHORIZATION_FAILED);

        AddPartitionsToTxnRequest brokerForm = AddPartitionsToTxnRequest.Builder.forBroker(
                new AddPartitionsToTxnRequestData.AddPartitionsToTxnTransactionCollection(List.of(
                        new AddPartitionsToTxnRequestData.AddPartitionsToTxnTransaction().setTransactionalId("tx-1")
                                .setProducerId(txn.producerId()).setProducerEpoch(txn.epoch()).setVerifyOnly(true)
                                .setTopics(new AddPartitionsToTxnRequestData.AddPartitionsToTxnTopicCollection(List.of(
                                        new AddPartitionsToTxnRequestData.AddPartitionsToTxnTopic().setName("orders")
                                                .setPartitions(List.of(0))).iterator()))).iterator())).build((short) 4);
        AddPartitionsToTxnResponse verify = secured.roundTrip(brokerForm);
        assertThat(verify.data().errorCode()).as("v4 comes from brokers: CLUSTER_ACTION")
                .isEqualTo(Errors.CLUSTER_AUTHORIZATION_FAILED.code());

        WriteTxnMarkersResponse markers = secured.roundTrip(new WriteTxnMarkersRequest.Builder((short) 1, List.of(
                new WriteTxnMarkersRequest.TxnMarkerEntry(txn.producerId(), txn.epoch(), 0, TransactionResult.ABORT,
                        List.of(new org.apache.kafka.common.TopicPartition("orders", 0))))).build((short) 1));
        assertThat(markers.errorsByProducerId().get(txn.producerId()).values()).containsOnly(Errors.CLUSTER_AUTHORIZATION_FAILED);
    }

    @Test
    void transactionAndProducerToolsSeeOnlyWhatThePrincipalMayDescribe() {
        TxnDriver txn = new TxnDriver(wire, "tx-1").init();
        new TxnDriver(wire, "tx-hidden").init();
        txn.addPartitions("orders", 0);
        txn.addPartitions("audit", 0);
        grant(AclResourceType.TRANSACTIONAL_ID, "tx-1", AclOperation.DESCRIBE);
        grant(AclResourceType.TOPIC, "orders", AclOperation.READ);

        ListTransactionsResponse listed = secured.roundTrip(new ListTransactionsRequest.Builder(
                new ListTransactionsRequestData()).build((short) 0));
        assertThat(listed.data().transactionStates()).extracting(t -> t.transactionalId()).containsExactly("tx-1");

        DescribeTransactionsResponse described = secured.roundTrip(new DescribeTransactionsRequest.Builder(
                new DescribeTransactionsRequestData().setTransactionalIds(List.of("tx-1", "tx-hidden"))).build((short) 0));
        assertThat(described.data().transactionStates()).extracting(t -> t.transactionalId(), t -> t.errorCode())
                .containsExactlyInAnyOrder(tuple("tx-1", Errors.NONE.code()),
                        tuple("tx-hidden", Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED.code()));
        assertThat(described.data().transactionStates()).filteredOn(t -> t.transactionalId().equals("tx-1"))
                .singleElement().satisfies(t -> assertThat(t.topics()).extracting(x -> x.topic()).containsExactly("orders"));

        DescribeProducersResponse producers = secured.roundTrip(new DescribeProducersRequest.Builder(
                new DescribeProducersRequestData().setTopics(List.of(
                        new DescribeProducersRequestData.TopicRequest().setName("orders").setPartitionIndexes(List.of(0)),
                        new DescribeProducersRequestData.TopicRequest().setName("audit").setPartitionIndexes(List.of(0)))))
                .build((short) 0));
        assertThat(producers.data().topics()).extracting(t -> t.name(), t -> t.partitions().get(0).errorCode())
                .containsExactly(tuple("orders", Errors.NONE.code()), tuple("audit", Errors.TOPIC_AUTHORIZATION_FAILED.code()));
    }

    // ---------------------------------------------------------------- cluster operations

    @Test
    void clusterOperationsNeedTheirClusterOperation() {
        DescribeLogDirsResponse logDirs = secured.roundTrip(new DescribeLogDirsRequest.Builder(
                new DescribeLogDirsRequestData().setTopics(null)).build((short) 4));
        assertThat(logDirs.data().errorCode()).isEqualTo(Errors.CLUSTER_AUTHORIZATION_FAILED.code());
        assertThat(logDirs.data().results()).isEmpty();

        ElectLeadersResponse elected = secured.roundTrip(new ElectLeadersRequest.Builder(ElectionType.PREFERRED,
                List.of(new org.apache.kafka.common.TopicPartition("orders", 0)), 5_000).build((short) 2));
        assertThat(elected.data().errorCode()).isEqualTo(Errors.CLUSTER_AUTHORIZATION_FAILED.code());

        AlterPartitionReassignmentsResponse reassigned = secured.roundTrip(new AlterPartitionReassignmentsRequest.Builder(
                new AlterPartitionReassignmentsRequestData()).build((short) 0));
        assertThat(reassigned.data().errorCode()).isEqualTo(Errors.CLUSTER_AUTHORIZATION_FAILED.code());

        ListPartitionReassignmentsResponse listed = secured.roundTrip(new ListPartitionReassignmentsRequest.Builder(
                new ListPartitionReassignmentsRequestData()).build((short) 0));
        assertThat(listed.data().errorCode()).isEqualTo(Errors.CLUSTER_AUTHORIZATION_FAILED.code());

        AlterReplicaLogDirsRequestData.AlterReplicaLogDirTopicCollection moved =
                new AlterReplicaLogDirsRequestData.AlterReplicaLogDirTopicCollection();
        moved.add(new AlterReplicaLogDirsRequestData.AlterReplicaLogDirTopic().setName("orders").setPartitions(List.of(0)));
        AlterReplicaLogDirsRequestData.AlterReplicaLogDirCollection toDirs =
                new AlterReplicaLogDirsRequestData.AlterReplicaLogDirCollection();
        toDirs.add(new AlterReplicaLogDirsRequestData.AlterReplicaLogDir().setPath("memory://").setTopics(moved));
        AlterReplicaLogDirsResponse alteredDirs = secured.roundTrip(new AlterReplicaLogDirsRequest.Builder(
                new AlterReplicaLogDirsRequestData().setDirs(toDirs)).build((short) 2));
        assertThat(alteredDirs.data().results().get(0).partitions().get(0).errorCode())
                .isEqualTo(Errors.CLUSTER_AUTHORIZATION_FAILED.code());

        grant(AclResourceType.CLUSTER, AclResourceType.CLUSTER_NAME, AclOperation.DESCRIBE);
        assertThat(secured.<DescribeLogDirsResponse>roundTrip(new DescribeLogDirsRequest.Builder(
                new DescribeLogDirsRequestData().setTopics(null)).build((short) 4)).data().errorCode())
                .isEqualTo(Errors.NONE.code());
        assertThat(secured.<ListPartitionReassignmentsResponse>roundTrip(new ListPartitionReassignmentsRequest.Builder(
                new ListPartitionReassignmentsRequestData()).build((short) 0)).data().errorCode())
                .isEqualTo(Errors.NONE.code());
    }

    // ---------------------------------------------------------------- ACL admin

    @Test
    void withoutAnAuthorizerTheAclApisAreSecurityDisabled() {
        CreateAclsResponse created = wire.roundTrip(new CreateAclsRequest.Builder(new org.apache.kafka.common.message
                .CreateAclsRequestData().setCreations(List.of(CreateAclsRequest.aclCreation(aliceReadsOrders()))))
                .build((short) 3));
        assertThat(created.results()).extracting(r -> r.errorCode()).containsExactly(Errors.SECURITY_DISABLED.code());

        DescribeAclsResponse described = wire.roundTrip(new DescribeAclsRequest.Builder(AclBindingFilter.ANY)
                .build((short) 3));
        assertThat(described.error().error()).isEqualTo(Errors.SECURITY_DISABLED);
        assertThat(described.error().message()).isEqualTo("No Authorizer is configured.");
    }

    @Test
    void aclApisNeedAlterOrDescribeOnTheClusterAndAnswerPerEntry() {
        DescribeAclsResponse refused = secured.roundTrip(new DescribeAclsRequest.Builder(AclBindingFilter.ANY)
                .build((short) 3));
        assertThat(refused.error().error()).isEqualTo(Errors.CLUSTER_AUTHORIZATION_FAILED);

        grant(AclResourceType.CLUSTER, AclResourceType.CLUSTER_NAME, AclOperation.ALTER);
        org.apache.kafka.common.acl.AclBinding otherCluster = new org.apache.kafka.common.acl.AclBinding(
                new ResourcePattern(ResourceType.CLUSTER, "other", PatternType.LITERAL),
                new AccessControlEntry("User:alice", "*", org.apache.kafka.common.acl.AclOperation.ALTER,
                        AclPermissionType.ALLOW));
        org.apache.kafka.common.message.CreateAclsRequestData.AclCreation badPrincipal =
                CreateAclsRequest.aclCreation(aliceReadsOrders()).setPrincipal("alice");
        CreateAclsResponse created = secured.roundTrip(new CreateAclsRequest.Builder(new org.apache.kafka.common.message
                .CreateAclsRequestData().setCreations(List.of(CreateAclsRequest.aclCreation(aliceReadsOrders()),
                        CreateAclsRequest.aclCreation(otherCluster), badPrincipal))).build((short) 3));
        assertThat(created.results()).extracting(r -> r.errorCode()).containsExactly(Errors.NONE.code(),
                Errors.INVALID_REQUEST.code(), Errors.INVALID_REQUEST.code());
        assertThat(rules.bindings()).contains(new AclBinding(KafkaPrincipal.user("alice"), "*", AclResourceType.TOPIC,
                "orders", AclPatternType.LITERAL, AclOperation.READ, AclPermission.ALLOW));

        DescribeAclsResponse described = secured.roundTrip(new DescribeAclsRequest.Builder(AclBindingFilter.ANY)
                .build((short) 3));
        assertThat(DescribeAclsResponse.aclBindings(described.acls())).contains(aliceReadsOrders());

        DeleteAclsResponse deleted = secured.roundTrip(new DeleteAclsRequest.Builder(
                new org.apache.kafka.common.message.DeleteAclsRequestData().setFilters(List.of(
                        DeleteAclsRequest.deleteAclsFilter(aliceReadsOrders().toFilter())))).build((short) 3));
        assertThat(deleted.filterResults()).singleElement().satisfies(r -> assertThat(r.matchingAcls())
                .extracting(DeleteAclsResponse::aclBinding).containsExactly(aliceReadsOrders()));
        assertThat(store.read()).doesNotContain(new AclBinding(KafkaPrincipal.user("alice"), "*", AclResourceType.TOPIC,
                "orders", AclPatternType.LITERAL, AclOperation.READ, AclPermission.ALLOW));
    }

    private static org.apache.kafka.common.acl.AclBinding aliceReadsOrders() {
        return new org.apache.kafka.common.acl.AclBinding(new ResourcePattern(ResourceType.TOPIC, "orders",
                PatternType.LITERAL), new AccessControlEntry("User:alice", "*",
                org.apache.kafka.common.acl.AclOperation.READ, AclPermissionType.ALLOW));
    }

    /** acls.json in memory. */
    private static final class MemoryAclStore implements AclStore {
        private List<AclBinding> acls = List.of();

        @Override
        public List<AclBinding> read() {
            return acls;
        }

        @Override
        public void write(List<AclBinding> next) {
            acls = List.copyOf(next);
        }
    }
}
