package io.kaas.adapter.wire.handler;

import io.kaas.adapter.wire.dispatch.ApiHandler;
import io.kaas.adapter.wire.dispatch.RequestContext;
import io.kaas.adapter.wire.mapping.Access;
import io.kaas.application.port.in.ProduceUseCase;
import io.kaas.application.port.in.QuotaEnforcement;
import io.kaas.domain.batch.RecordBatchHeader;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.security.AclOperation;
import io.kaas.domain.topic.TopicPartition;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.BaseRecords;
import org.apache.kafka.common.record.MemoryRecords;
import org.apache.kafka.common.requests.ProduceRequest;
import org.apache.kafka.common.requests.ProduceResponse;

/**
 * Produce (key 0): hands each partition's batch bytes, still a view of the request frame, to the
 * produce use case. Records are never decoded here. As Apache: transactional batches need WRITE on the
 * transactional id (else the whole request fails TRANSACTIONAL_ID_AUTHORIZATION_FAILED), and each topic
 * WRITE (else TOPIC_AUTHORIZATION_FAILED for its partitions); idempotence needs nothing more (KIP-679).
 * Once the appends are done the request's size is charged to the client's {@code producer_byte_rate} quota,
 * whose throttle time the response carries (the dispatcher then holds the connection back for as long).
 */
public final class ProduceHandler implements ApiHandler<ProduceRequest> {
    private static final int ZSTD = 4;
    /** Produce v7 is the first version allowed to carry zstd batches (KIP-110). */
    private static final short FIRST_ZSTD_VERSION = 7;

    private final ProduceUseCase produce;
    private final Access access;
    private final QuotaEnforcement quotas;

    public ProduceHandler(ProduceUseCase produce, Access access, QuotaEnforcement quotas) {
        this.produce = produce;
        this.access = access;
        this.quotas = quotas;
    }

    @Override
    public CompletionStage<ProduceResponse> handle(RequestContext context, ProduceRequest request) {
        ProduceRequestData data = request.data();
        if (access.enabled() && hasTransactionalBatch(data) && (data.transactionalId() == null
                || !access.transactionalId(context, AclOperation.WRITE, data.transactionalId()))) {
            return Refused.with(request, Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED);
        }
        List<ProduceUseCase.PartitionRecords> accepted = new ArrayList<>();
        Map<TopicPartition, ProduceUseCase.PartitionResult> refused = new LinkedHashMap<>();
        List<TopicPartition> order = new ArrayList<>();
        for (ProduceRequestData.TopicProduceData topic : data.topicData()) {
            boolean writable = access.topic(context, AclOperation.WRITE, topic.name());
            for (ProduceRequestData.PartitionProduceData partition : topic.partitionData()) {
                TopicPartition tp = new TopicPartition(topic.name(), partition.index());
                order.add(tp);
                ByteBuffer records = bytesOf(partition.records());
                if (!writable) {
                    refused.put(tp, ProduceUseCase.PartitionResult.failed(tp, KafkaError.TOPIC_AUTHORIZATION_FAILED, null));
                } else if (request.version() < FIRST_ZSTD_VERSION && records.remaining() >= RecordBatchHeader.HEADER_SIZE
                        && RecordBatchHeader.at(records).compressionCodec() == ZSTD) {
                    refused.put(tp, ProduceUseCase.PartitionResult.failed(tp, KafkaError.UNSUPPORTED_COMPRESSION_TYPE,
                            "Produce requests with version " + request.version() + " are not allowed to use ZStandard compression"));
                } else {
                    accepted.add(new ProduceUseCase.PartitionRecords(tp, records));
                }
            }
        }
        context.span().attribute("kaas.partitions", order.size());
        return context.resume(produce.produce(new ProduceUseCase.Command(data.transactionalId(), data.acks(),
                        data.timeoutMs(), accepted, context.span(), context.loop())))
                .thenApply(results -> {
                    Map<TopicPartition, ProduceUseCase.PartitionResult> byPartition = new LinkedHashMap<>(refused);
                    results.forEach(r -> byPartition.put(r.partition(), r));
                    ProduceResponse response = response(order, byPartition);
                    response.data().setThrottleTimeMs(quotas.produce(context.user(), context.clientId(),
                            context.requestBytes()));
                    return response;
                });
    }

    /** Whether any batch is transactional, from batch headers alone (Apache's {@code hasTransactionalRecords}). */
    private static boolean hasTransactionalBatch(ProduceRequestData data) {
        for (ProduceRequestData.TopicProduceData topic : data.topicData()) {
            for (ProduceRequestData.PartitionProduceData partition : topic.partitionData()) {
                ByteBuffer records = bytesOf(partition.records());
                int at = records.position();
                while (records.limit() - at >= RecordBatchHeader.HEADER_SIZE) {
                    RecordBatchHeader header = RecordBatchHeader.at(records, at);
                    if (header.isTransactional()) {
                        return true;
                    }
                    if (header.sizeInBytes() <= 0) {
                        break;
                    }
                    at += header.sizeInBytes();
                }
            }
        }
        return false;
    }

    private static ByteBuffer bytesOf(BaseRecords records) {
        if (records instanceof MemoryRecords memory) {
            return memory.buffer();
        }
        return ByteBuffer.allocate(0);
    }

    private static ProduceResponse response(List<TopicPartition> order,
                                            Map<TopicPartition, ProduceUseCase.PartitionResult> results) {
        ProduceResponseData data = new ProduceResponseData();
        data.responses().addAll(ByTopic.group(order, TopicPartition::topic,
                name -> new ProduceResponseData.TopicProduceResponse().setName(name),
                (topic, tp) -> {
                    ProduceUseCase.PartitionResult r = results.get(tp);
                    topic.partitionResponses().add(new ProduceResponseData.PartitionProduceResponse()
                            .setIndex(tp.partition())
                            .setErrorCode(r.error().code())
                            .setErrorMessage(r.message())
                            .setBaseOffset(r.baseOffset())
                            .setLogAppendTimeMs(r.logAppendTimeMs())
                            .setLogStartOffset(r.logStartOffset())
                            .setRecordErrors(r.recordErrors().stream()
                                    .map(e -> new ProduceResponseData.BatchIndexAndErrorMessage()
                                            .setBatchIndex(e.batchIndex()).setBatchIndexErrorMessage(e.message()))
                                    .toList()));
                }));
        return new ProduceResponse(data);
    }
}
