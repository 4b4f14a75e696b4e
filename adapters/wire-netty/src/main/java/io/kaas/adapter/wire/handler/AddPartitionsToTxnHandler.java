package io.kaas.adapter.wire.handler;

import io.kaas.adapter.wire.dispatch.ApiHandler;
import io.kaas.adapter.wire.dispatch.RequestContext;
import io.kaas.adapter.wire.mapping.Access;
import io.kaas.adapter.wire.mapping.ErrorMapping;
import io.kaas.application.port.in.TransactionCoordinator;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.security.AclOperation;
import io.kaas.domain.topic.TopicPartition;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.kafka.common.message.AddPartitionsToTxnRequestData.AddPartitionsToTxnTransaction;
import org.apache.kafka.common.message.AddPartitionsToTxnResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AddPartitionsToTxnRequest;
import org.apache.kafka.common.requests.AddPartitionsToTxnResponse;

/**
 * AddPartitionsToTxn (key 24), v0-4. v0-3 are the producer's form: one transaction, its partitions
 * added. v4 is Apache's broker-to-broker form (KIP-890): several transactions per request, each
 * either added or, with {@code verify_only}, only checked - what a partition leader asks a remote
 * coordinator before appending a transactional batch. kaas brokers verify through the
 * {@code TransactionVerifier} port instead, but v4 is served with Apache's semantics so any v4
 * sender gets Apache's answers. PRODUCER_FENCED became a code in v2; v0-1 get INVALID_PRODUCER_EPOCH.
 * Authorization as Apache: v0-3 need WRITE on the transactional id and on each topic, v4 CLUSTER_ACTION.
 */
public final class AddPartitionsToTxnHandler implements ApiHandler<AddPartitionsToTxnRequest> {
    /** v2 introduced PRODUCER_FENCED; v4 the batched broker form. */
    private static final int FIRST_PRODUCER_FENCED_VERSION = 2;
    private static final short FIRST_BATCHED_VERSION = 4;

    private final TransactionCoordinator transactions;
    private final Access access;

    public AddPartitionsToTxnHandler(TransactionCoordinator transactions, Access access) {
        this.transactions = transactions;
        this.access = access;
    }

    @Override
    public CompletionStage<AddPartitionsToTxnResponse> handle(RequestContext context, AddPartitionsToTxnRequest request) {
        short version = request.version();
        if (version >= FIRST_BATCHED_VERSION && !access.cluster(context, AclOperation.CLUSTER_ACTION)) {
            return CompletableFuture.completedFuture(
                    request.getErrorResponse(0, Errors.CLUSTER_AUTHORIZATION_FAILED.exception()));
        }
        AddPartitionsToTxnRequest normalized = version < FIRST_BATCHED_VERSION ? request.normalizeRequest() : request;
        Map<String, List<org.apache.kafka.common.TopicPartition>> byTransaction = normalized.partitionsByTransaction();
        List<CompletableFuture<AddPartitionsToTxnResponseData.AddPartitionsToTxnResult>> results = new ArrayList<>();
        for (AddPartitionsToTxnTransaction txn : normalized.data().transactions()) {
            if (txn.transactionalId() == null) {
                return CompletableFuture.completedFuture(request.getErrorResponse(0, Errors.INVALID_REQUEST.exception()));
            }
            Set<TopicPartition> partitions = new LinkedHashSet<>();
            byTransaction.get(txn.transactionalId()).forEach(tp -> partitions.add(new TopicPartition(tp.topic(), tp.partition())));
            Map<TopicPartition, KafkaError> refused = version < FIRST_BATCHED_VERSION
                    ? refusals(context, txn.transactionalId(), partitions) : Map.of();
            if (!refused.isEmpty()) {
                results.add(CompletableFuture.completedFuture(result(txn.transactionalId(), refused, version)));
                continue;
            }
            CompletionStage<Map<TopicPartition, KafkaError>> answer = version >= FIRST_BATCHED_VERSION && txn.verifyOnly()
                    ? transactions.verifyPartitions(txn.transactionalId(), txn.producerId(), txn.producerEpoch(), partitions)
                    : transactions.addPartitions(txn.transactionalId(), txn.producerId(), txn.producerEpoch(), partitions);
            results.add(context.resume(answer).toCompletableFuture().thenApply(errors -> result(txn.transactionalId(), errors, version)));
        }
        return CompletableFuture.allOf(results.toArray(CompletableFuture[]::new)).thenApply(v -> {
            AddPartitionsToTxnResponseData data = new AddPartitionsToTxnResponseData();
            if (version < FIRST_BATCHED_VERSION) {
                results.forEach(r -> data.setResultsByTopicV3AndBelow(r.join().topicResults()));
            } else {
                results.forEach(r -> data.resultsByTransaction().add(r.join()));
            }
            return new AddPartitionsToTxnResponse(data);
        });
    }

    /**
     * A client's transaction refused, as Apache: without WRITE on the transactional id every partition answers
     * TRANSACTIONAL_ID_AUTHORIZATION_FAILED; without WRITE on a topic its partitions answer
     * TOPIC_AUTHORIZATION_FAILED and the others OPERATION_NOT_ATTEMPTED. Empty when nothing is refused.
     */
    private Map<TopicPartition, KafkaError> refusals(RequestContext context, String transactionalId,
                                                     Set<TopicPartition> partitions) {
        Map<TopicPartition, KafkaError> refused = new LinkedHashMap<>();
        if (!access.transactionalId(context, AclOperation.WRITE, transactionalId)) {
            partitions.forEach(tp -> refused.put(tp, KafkaError.TRANSACTIONAL_ID_AUTHORIZATION_FAILED));
            return refused;
        }
        Set<String> denied = access.deniedTopics(context, AclOperation.WRITE,
                partitions.stream().map(TopicPartition::topic).toList());
        if (!denied.isEmpty()) {
            partitions.forEach(tp -> refused.put(tp, denied.contains(tp.topic()) ? KafkaError.TOPIC_AUTHORIZATION_FAILED
                    : KafkaError.OPERATION_NOT_ATTEMPTED));
        }
        return refused;
    }

    private static AddPartitionsToTxnResponseData.AddPartitionsToTxnResult result(String transactionalId,
                                                                                 Map<TopicPartition, KafkaError> errors,
                                                                                 short version) {
        Map<org.apache.kafka.common.TopicPartition, Errors> wire = new LinkedHashMap<>();
        errors.forEach((tp, e) -> wire.put(new org.apache.kafka.common.TopicPartition(tp.topic(), tp.partition()),
                Errors.forCode(ErrorMapping.producerFencedAware(e, version, FIRST_PRODUCER_FENCED_VERSION))));
        return AddPartitionsToTxnResponse.resultForTransaction(transactionalId, wire);
    }
}
