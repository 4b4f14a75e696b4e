package io.kaas.adapter.wire.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.message.AddOffsetsToTxnRequestData;
import org.apache.kafka.common.message.EndTxnRequestData;
import org.apache.kafka.common.message.InitProducerIdRequestData;
import org.apache.kafka.common.message.InitProducerIdResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.CompressionType;
import org.apache.kafka.common.record.MemoryRecords;
import org.apache.kafka.common.record.SimpleRecord;
import org.apache.kafka.common.requests.AddOffsetsToTxnRequest;
import org.apache.kafka.common.requests.AddOffsetsToTxnResponse;
import org.apache.kafka.common.requests.AddPartitionsToTxnRequest;
import org.apache.kafka.common.requests.AddPartitionsToTxnResponse;
import org.apache.kafka.common.requests.EndTxnRequest;
import org.apache.kafka.common.requests.EndTxnResponse;
import org.apache.kafka.common.requests.InitProducerIdRequest;
import org.apache.kafka.common.requests.InitProducerIdResponse;
import org.apache.kafka.common.requests.ProduceRequest;
import org.apache.kafka.common.requests.ProduceResponse;

/**
 * A transactional producer's requests over a {@link WireChannel}, at the versions a 3.7 Java
 * producer sends, for handler tests that need a transaction in a given state.
 */
public final class TxnDriver {
    public static final int TIMEOUT_MS = 60_000;
    private static final short PRODUCE_VERSION = 9;

    private final WireChannel wire;
    private final String transactionalId;
    private long producerId;
    private short epoch;
    private int sequence;

    public TxnDriver(WireChannel wire, String transactionalId) {
        this.wire = wire;
        this.transactionalId = transactionalId;
    }

    /**
     * InitProducerId, retried once after CONCURRENT_TRANSACTIONS (an open transaction was aborted
     * first, as a producer retries); the producer id and epoch are kept for the next requests.
     */
    public TxnDriver init() {
        InitProducerIdResponseData data = initOnce();
        if (data.errorCode() == Errors.CONCURRENT_TRANSACTIONS.code()) {
            data = initOnce();
        }
        assertThat(Errors.forCode(data.errorCode())).as("InitProducerId of %s", transactionalId).isEqualTo(Errors.NONE);
        producerId = data.producerId();
        epoch = data.producerEpoch();
        sequence = 0;
        return this;
    }

    private InitProducerIdResponseData initOnce() {
        return wire.<InitProducerIdResponse>roundTrip(new InitProducerIdRequest.Builder(
                new InitProducerIdRequestData().setTransactionalId(transactionalId).setTransactionTimeoutMs(TIMEOUT_MS))
                .build((short) 4)).data();
    }

    public long producerId() {
        return producerId;
    }

    public short epoch() {
        return epoch;
    }

    public Errors addPartitions(String topic, int... partitions) {
        List<TopicPartition> tps = Arrays.stream(partitions).mapToObj(p -> new TopicPartition(topic, p)).toList();
        AddPartitionsToTxnResponse response = wire.roundTrip(AddPartitionsToTxnRequest.Builder
                .forClient(transactionalId, producerId, epoch, tps).build((short) 3));
        return response.errors().get(AddPartitionsToTxnResponse.V3_AND_BELOW_TXN_ID).values().iterator().next();
    }

    public Errors addOffsets(String group) {
        return Errors.forCode(wire.<AddOffsetsToTxnResponse>roundTrip(new AddOffsetsToTxnRequest.Builder(
                new AddOffsetsToTxnRequestData().setTransactionalId(transactionalId).setProducerId(producerId)
                        .setProducerEpoch(epoch).setGroupId(group)).build((short) 3)).data().errorCode());
    }

    /** Produces one transactional batch of {@code values}; returns the partition's error. */
    public Errors produce(String topic, int partition, String... values) {
        MemoryRecords batch = batch(producerId, epoch, sequence, values);
        ProduceRequest request = TestRecords.produce(PRODUCE_VERSION, (short) -1, topic, partition, batch);
        request.data().setTransactionalId(transactionalId);
        ProduceResponse response = wire.roundTrip(request);
        Errors error = Errors.forCode(response.data().responses().find(topic).partitionResponses().get(0).errorCode());
        if (error == Errors.NONE) {
            sequence += values.length;
        }
        return error;
    }

    public Errors endTxn(boolean commit) {
        return Errors.forCode(wire.<EndTxnResponse>roundTrip(new EndTxnRequest.Builder(new EndTxnRequestData()
                .setTransactionalId(transactionalId).setProducerId(producerId).setProducerEpoch(epoch)
                .setCommitted(commit)).build((short) 3)).data().errorCode());
    }

    /** A transactional batch as a 3.7 producer builds it. */
    public static MemoryRecords batch(long producerId, short epoch, int baseSequence, String... values) {
        SimpleRecord[] records = new SimpleRecord[values.length];
        for (int i = 0; i < values.length; i++) {
            records[i] = new SimpleRecord(1_000L, null, values[i].getBytes(StandardCharsets.UTF_8));
        }
        return MemoryRecords.withTransactionalRecords(CompressionType.NONE, producerId, epoch, baseSequence, records);
    }
}
