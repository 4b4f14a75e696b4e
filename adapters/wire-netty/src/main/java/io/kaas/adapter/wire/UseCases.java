package io.kaas.adapter.wire;

import io.kaas.application.port.in.ClientQuotasUseCase;
import io.kaas.application.port.in.ClusterUseCase;
import io.kaas.application.port.in.ConfigUseCase;
import io.kaas.application.port.in.DeleteRecordsUseCase;
import io.kaas.application.port.in.DescribeProducersUseCase;
import io.kaas.application.port.in.FetchUseCase;
import io.kaas.application.port.in.GroupCoordinator;
import io.kaas.application.port.in.ListOffsetsUseCase;
import io.kaas.application.port.in.LogDirsUseCase;
import io.kaas.application.port.in.MetadataUseCase;
import io.kaas.application.port.in.PartitionLeadershipUseCase;
import io.kaas.application.port.in.ProduceUseCase;
import io.kaas.application.port.in.ProducerIdUseCase;
import io.kaas.application.port.in.QuotaEnforcement;
import io.kaas.application.port.in.TopicAdminUseCase;
import io.kaas.application.port.in.TransactionCoordinator;
import io.kaas.application.port.in.UserScramCredentialsUseCase;
import io.kaas.application.port.in.WriteTxnMarkersUseCase;

/** The use cases the wire serves: everything a handler may call. */
public record UseCases(ProduceUseCase produce, FetchUseCase fetch, ListOffsetsUseCase listOffsets,
                       MetadataUseCase metadata, TopicAdminUseCase topics, ClusterUseCase cluster,
                       ProducerIdUseCase producerIds, DeleteRecordsUseCase deleteRecords, ConfigUseCase configs,
                       LogDirsUseCase logDirs, GroupCoordinator groups, TransactionCoordinator transactions,
                       WriteTxnMarkersUseCase txnMarkers, DescribeProducersUseCase producerStates,
                       PartitionLeadershipUseCase leadership, UserScramCredentialsUseCase scramCredentials,
                       ClientQuotasUseCase quotas, QuotaEnforcement quotaEnforcement) {

    /**
     * The same use cases with the cluster as one listener advertises it: Metadata, FindCoordinator and
     * DescribeCluster hand out the brokers of {@code listenerCluster}.
     */
    public UseCases withCluster(ClusterUseCase listenerCluster) {
        return new UseCases(produce, fetch, listOffsets, metadata, topics, listenerCluster, producerIds, deleteRecords,
                configs, logDirs, groups, transactions, txnMarkers, producerStates, leadership, scramCredentials, quotas,
                quotaEnforcement);
    }
}
