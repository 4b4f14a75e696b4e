package io.kaas.adapter.wire;

import io.kaas.adapter.wire.dispatch.ApiRegistry;
import io.kaas.adapter.wire.handler.AddOffsetsToTxnHandler;
import io.kaas.adapter.wire.handler.AddPartitionsToTxnHandler;
import io.kaas.adapter.wire.handler.AlterClientQuotasHandler;
import io.kaas.adapter.wire.handler.AlterConfigsHandler;
import io.kaas.adapter.wire.handler.AlterPartitionReassignmentsHandler;
import io.kaas.adapter.wire.handler.AlterReplicaLogDirsHandler;
import io.kaas.adapter.wire.handler.AlterUserScramCredentialsHandler;
import io.kaas.adapter.wire.handler.CreateAclsHandler;
import io.kaas.adapter.wire.handler.CreatePartitionsHandler;
import io.kaas.adapter.wire.handler.CreateTopicsHandler;
import io.kaas.adapter.wire.handler.DeleteAclsHandler;
import io.kaas.adapter.wire.handler.DeleteGroupsHandler;
import io.kaas.adapter.wire.handler.DeleteRecordsHandler;
import io.kaas.adapter.wire.handler.DeleteTopicsHandler;
import io.kaas.adapter.wire.handler.DescribeAclsHandler;
import io.kaas.adapter.wire.handler.DescribeClientQuotasHandler;
import io.kaas.adapter.wire.handler.DescribeClusterHandler;
import io.kaas.adapter.wire.handler.DescribeConfigsHandler;
import io.kaas.adapter.wire.handler.DescribeGroupsHandler;
import io.kaas.adapter.wire.handler.DescribeLogDirsHandler;
import io.kaas.adapter.wire.handler.DescribeProducersHandler;
import io.kaas.adapter.wire.handler.DescribeTransactionsHandler;
import io.kaas.adapter.wire.handler.DescribeUserScramCredentialsHandler;
import io.kaas.adapter.wire.handler.ElectLeadersHandler;
import io.kaas.adapter.wire.handler.EndTxnHandler;
import io.kaas.adapter.wire.handler.FetchHandler;
import io.kaas.adapter.wire.handler.FindCoordinatorHandler;
import io.kaas.adapter.wire.handler.HeartbeatHandler;
import io.kaas.adapter.wire.handler.IncrementalAlterConfigsHandler;
import io.kaas.adapter.wire.handler.InitProducerIdHandler;
import io.kaas.adapter.wire.handler.JoinGroupHandler;
import io.kaas.adapter.wire.handler.LeaveGroupHandler;
import io.kaas.adapter.wire.handler.ListGroupsHandler;
import io.kaas.adapter.wire.handler.ListOffsetsHandler;
import io.kaas.adapter.wire.handler.ListPartitionReassignmentsHandler;
import io.kaas.adapter.wire.handler.ListTransactionsHandler;
import io.kaas.adapter.wire.handler.MetadataHandler;
import io.kaas.adapter.wire.handler.OffsetCommitHandler;
import io.kaas.adapter.wire.handler.OffsetDeleteHandler;
import io.kaas.adapter.wire.handler.OffsetFetchHandler;
import io.kaas.adapter.wire.handler.ProduceHandler;
import io.kaas.adapter.wire.handler.SaslAuthenticateHandler;
import io.kaas.adapter.wire.handler.SaslHandshakeHandler;
import io.kaas.adapter.wire.handler.SyncGroupHandler;
import io.kaas.adapter.wire.handler.TxnOffsetCommitHandler;
import io.kaas.adapter.wire.handler.WriteTxnMarkersHandler;
import io.kaas.adapter.wire.mapping.Access;
import org.apache.kafka.common.protocol.ApiKeys;

/**
 * The served surface: every API key kaas answers, with its version range. Ranges are Apache 3.7's
 * except where an old version's semantics are absent (message formats v0/v1 need
 * Produce &lt; 3 and Fetch &lt; 4; ListOffsets v0 is the pre-KIP-79 shape). The group APIs serve
 * Apache's full ranges; where a version's meaning differs (OffsetCommit/OffsetFetch v0 went to
 * ZooKeeper in Apache; v9 adds KIP-848 fields) the handler says what it does. The transaction APIs
 * serve Apache's full ranges too, AddPartitionsToTxn v4 (the broker-to-broker verification form)
 * and WriteTxnMarkers (the coordinator-to-leader API) included, with Apache's receiver semantics.
 * Every handler checks what Apache's KafkaApis checks with the {@link AccessControl}'s authorizer.
 * SaslHandshake and SaslAuthenticate are here for ApiVersions and for the connections that need no
 * handshake; the exchange itself runs in the SASL listeners' pre-authentication gate.
 * {@code docs/api-matrix.md} is generated from this table.
 */
public final class KafkaApis {
    private KafkaApis() {
    }

    /** The served surface without an authorizer: everything allowed, the ACL APIs answer SECURITY_DISABLED. */
    public static ApiRegistry registry(UseCases uc) {
        return registry(uc, AccessControl.DISABLED);
    }

    public static ApiRegistry registry(UseCases uc, AccessControl accessControl) {
        Access access = new Access(accessControl.authorizer());
        return ApiRegistry.builder()
                .quotas(uc.quotaEnforcement())
                .serve(ApiKeys.PRODUCE, 3, 10, new ProduceHandler(uc.produce(), access, uc.quotaEnforcement()))
                .advertiseFrom(ApiKeys.PRODUCE, 0)
                .serve(ApiKeys.FETCH, 4, 16, new FetchHandler(uc.fetch(), access, uc.quotaEnforcement()))
                .serve(ApiKeys.LIST_OFFSETS, 1, 8, new ListOffsetsHandler(uc.listOffsets(), access))
                .serve(ApiKeys.METADATA, 0, 12, new MetadataHandler(uc.metadata(), uc.topics(), uc.cluster(), access))
                .serve(ApiKeys.OFFSET_COMMIT, 0, 9, new OffsetCommitHandler(uc.groups(), access))
                .serve(ApiKeys.OFFSET_FETCH, 0, 9, new OffsetFetchHandler(uc.groups(), access))
                .serve(ApiKeys.FIND_COORDINATOR, 0, 4, new FindCoordinatorHandler(uc.cluster(), access))
                .serveBlocking(ApiKeys.CREATE_TOPICS, 0, 7, new CreateTopicsHandler(uc.topics(), uc.configs(), access,
                        uc.quotaEnforcement()))
                .serveBlocking(ApiKeys.DELETE_TOPICS, 0, 6, new DeleteTopicsHandler(uc.topics(), access,
                        uc.quotaEnforcement()))
                .serve(ApiKeys.DELETE_RECORDS, 0, 2, new DeleteRecordsHandler(uc.deleteRecords(), access))
                .serve(ApiKeys.INIT_PRODUCER_ID, 0, 4,
                        new InitProducerIdHandler(uc.producerIds(), uc.transactions(), access))
                .serve(ApiKeys.ADD_PARTITIONS_TO_TXN, 0, 4, new AddPartitionsToTxnHandler(uc.transactions(), access))
                .serve(ApiKeys.ADD_OFFSETS_TO_TXN, 0, 3, new AddOffsetsToTxnHandler(uc.transactions(), access))
                .serve(ApiKeys.END_TXN, 0, 3, new EndTxnHandler(uc.transactions(), access))
                .serve(ApiKeys.WRITE_TXN_MARKERS, 0, 1, new WriteTxnMarkersHandler(uc.txnMarkers(), access))
                .serve(ApiKeys.TXN_OFFSET_COMMIT, 0, 3, new TxnOffsetCommitHandler(uc.groups(), access))
                .serve(ApiKeys.DESCRIBE_ACLS, 0, 3, new DescribeAclsHandler(accessControl.acls(), access))
                .serveBlocking(ApiKeys.CREATE_ACLS, 0, 3, new CreateAclsHandler(accessControl.acls(), access))
                .serveBlocking(ApiKeys.DELETE_ACLS, 0, 3, new DeleteAclsHandler(accessControl.acls(), access))
                .serve(ApiKeys.DESCRIBE_CONFIGS, 0, 4, new DescribeConfigsHandler(uc.configs(), access))
                .serveBlocking(ApiKeys.ALTER_CONFIGS, 0, 2, new AlterConfigsHandler(uc.configs(), access))
                .serve(ApiKeys.ALTER_REPLICA_LOG_DIRS, 0, 2, new AlterReplicaLogDirsHandler(uc.logDirs(), access))
                .serve(ApiKeys.DESCRIBE_LOG_DIRS, 0, 4, new DescribeLogDirsHandler(uc.logDirs(), access))
                .serveBlocking(ApiKeys.CREATE_PARTITIONS, 0, 3, new CreatePartitionsHandler(uc.topics(), access,
                        uc.quotaEnforcement()))
                .serveBlocking(ApiKeys.INCREMENTAL_ALTER_CONFIGS, 0, 1,
                        new IncrementalAlterConfigsHandler(uc.configs(), access))
                .serve(ApiKeys.JOIN_GROUP, 0, 9, new JoinGroupHandler(uc.groups(), access))
                .serve(ApiKeys.HEARTBEAT, 0, 4, new HeartbeatHandler(uc.groups(), access))
                .serve(ApiKeys.LEAVE_GROUP, 0, 5, new LeaveGroupHandler(uc.groups(), access))
                .serve(ApiKeys.SYNC_GROUP, 0, 5, new SyncGroupHandler(uc.groups(), access))
                .serve(ApiKeys.DESCRIBE_GROUPS, 0, 5, new DescribeGroupsHandler(uc.groups(), access))
                .serve(ApiKeys.LIST_GROUPS, 0, 4, new ListGroupsHandler(uc.groups(), access))
                .serve(ApiKeys.DELETE_GROUPS, 0, 2, new DeleteGroupsHandler(uc.groups(), access))
                .serve(ApiKeys.OFFSET_DELETE, 0, 0, new OffsetDeleteHandler(uc.groups(), access))
                .serve(ApiKeys.DESCRIBE_CLUSTER, 0, 1, new DescribeClusterHandler(uc.cluster(), access))
                .serve(ApiKeys.ELECT_LEADERS, 0, 2, new ElectLeadersHandler(uc.leadership(), access))
                .serve(ApiKeys.ALTER_PARTITION_REASSIGNMENTS, 0, 0,
                        new AlterPartitionReassignmentsHandler(uc.leadership(), access))
                .serve(ApiKeys.LIST_PARTITION_REASSIGNMENTS, 0, 0,
                        new ListPartitionReassignmentsHandler(uc.leadership(), access))
                .serve(ApiKeys.DESCRIBE_PRODUCERS, 0, 0, new DescribeProducersHandler(uc.producerStates(), access))
                .serve(ApiKeys.DESCRIBE_TRANSACTIONS, 0, 0, new DescribeTransactionsHandler(uc.transactions(), access))
                .serve(ApiKeys.LIST_TRANSACTIONS, 0, 0, new ListTransactionsHandler(uc.transactions(), access))
                .serve(ApiKeys.SASL_HANDSHAKE, 0, 1, new SaslHandshakeHandler())
                .serve(ApiKeys.SASL_AUTHENTICATE, 0, 2, new SaslAuthenticateHandler())
                .serve(ApiKeys.DESCRIBE_CLIENT_QUOTAS, 0, 1, new DescribeClientQuotasHandler(uc.quotas(), access))
                .serveBlocking(ApiKeys.ALTER_CLIENT_QUOTAS, 0, 1, new AlterClientQuotasHandler(uc.quotas(), access))
                .serve(ApiKeys.DESCRIBE_USER_SCRAM_CREDENTIALS, 0, 0,
                        new DescribeUserScramCredentialsHandler(uc.scramCredentials(), access))
                .serveBlocking(ApiKeys.ALTER_USER_SCRAM_CREDENTIALS, 0, 0,
                        new AlterUserScramCredentialsHandler(uc.scramCredentials(), access))
                .build();
    }
}
