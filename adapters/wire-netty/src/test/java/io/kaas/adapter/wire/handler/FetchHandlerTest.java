package io.kaas.adapter.wire.handler;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.adapter.wire.mapping.TopicIdMapping;
import io.kaas.adapter.wire.support.InMemoryBroker;
import io.kaas.adapter.wire.support.NettyLeakDetection;
import io.kaas.adapter.wire.support.ServedVersionsTest;
import io.kaas.adapter.wire.support.TestRecords;
import io.kaas.adapter.wire.support.TxnDriver;
import io.kaas.adapter.wire.support.WireChannel;
import io.kaas.domain.topic.Topic;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.MemoryRecords;
import org.apache.kafka.common.record.Record;
import org.apache.kafka.common.requests.FetchMetadata;
import org.apache.kafka.common.requests.FetchRequest;
import org.apache.kafka.common.requests.FetchResponse;
import org.apache.kafka.common.requests.ProduceRequest;
import org.apache.kafka.common.requests.ProduceResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Fetch at every served version, through the real registry and the in-memory log: what comes back
 * is exactly what a producer sent, apart from the two header fields the broker assigns.
 */
@ExtendWith(NettyLeakDetection.class)
class FetchHandlerTest {
    private static final short PRODUCE_VERSION = 9;
    private static final int NO_WAIT = 0;
    private static final int MAX_BYTES = 1024 * 1024;
    /** Where a v2 batch header keeps its partition leader epoch, which the broker sets on append. */
    private static final int PARTITION_LEADER_EPOCH_OFFSET = 12;

    private final InMemoryBroker broker = new InMemoryBroker();
    private WireChannel wire;
    private Topic orders;
    private Uuid ordersId;
    /** What the producer sent, in order: two records at 1000, then one at 2000. */
    private byte[] firstBatch;
    private byte[] secondBatch;

    @BeforeEach
    void produceTwoBatches() {
        orders = broker.createTopic("orders", 2);
        ordersId = TopicIdMapping.toWire(orders.id());
        wire = new WireChannel(broker.registry());
        MemoryRecords first = TestRecords.batch(1_000L, "a", "b");
        MemoryRecords second = TestRecords.batch(2_000L, "c");
        firstBatch = TestRecords.bytes(first);
        secondBatch = TestRecords.bytes(second);
        assertThat(produce(first)).isEqualTo(Errors.NONE);
        assertThat(produce(second)).isEqualTo(Errors.NONE);
    }

    @AfterEach
    void disconnect() {
        wire.close();
    }

    @ServedVersionsTest(ApiKeys.FETCH)
    void returnsTheProducedBatchesWithTheirAssignedOffsets(short version) {
        FetchResponseData data = wire.<FetchResponse>roundTrip(fetch(version, 0, 0L, MAX_BYTES)).data();

        assertThat(data.errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(data.sessionId()).as("a sessionless fetch (epoch -1) opens no session").isZero();
        FetchResponseData.PartitionData p = onlyPartition(data, version);
        assertThat(p.partitionIndex()).isZero();
        assertThat(p.errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(p.highWatermark()).isEqualTo(3L);
        assertThat(p.lastStableOffset()).isEqualTo(3L);
        assertThat(p.logStartOffset()).isEqualTo(version >= 5 ? 0L : -1L);
        assertThat(p.abortedTransactions()).isNull();
        assertThat(p.preferredReadReplica()).isEqualTo(-1);
        assertThat(bytes(p)).isEqualTo(concat(stored(firstBatch, 0L), stored(secondBatch, 2L)));
        // ...and a consumer reads them back as records.
        List<String> values = new ArrayList<>();
        List<Long> offsets = new ArrayList<>();
        for (Record r : ((MemoryRecords) p.records()).records()) {
            values.add(StandardCharsets.UTF_8.decode(r.value()).toString());
            offsets.add(r.offset());
        }
        assertThat(values).containsExactly("a", "b", "c");
        assertThat(offsets).containsExactly(0L, 1L, 2L);
    }

    @ServedVersionsTest(ApiKeys.FETCH)
    void readsFromTheBatchHoldingTheFetchOffset(short version) {
        FetchResponseData.PartitionData p = onlyPartition(
                wire.<FetchResponse>roundTrip(fetch(version, 0, 2L, MAX_BYTES)).data(), version);

        assertThat(bytes(p)).isEqualTo(stored(secondBatch, 2L));
    }

    @ServedVersionsTest(ApiKeys.FETCH)
    void aSmallPartitionLimitStillReturnsTheFirstWholeBatch(short version) {
        FetchResponseData.PartitionData p = onlyPartition(
                wire.<FetchResponse>roundTrip(fetch(version, 0, 0L, 1)).data(), version);

        assertThat(bytes(p)).as("KIP-74: one whole batch even above the limit").isEqualTo(stored(firstBatch, 0L));
    }

    @ServedVersionsTest(ApiKeys.FETCH)
    void atTheHighWatermarkWithoutWaitingTheAnswerIsEmpty(short version) {
        FetchResponseData.PartitionData p = onlyPartition(
                wire.<FetchResponse>roundTrip(fetch(version, 0, 3L, MAX_BYTES)).data(), version);

        assertThat(p.errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(p.highWatermark()).isEqualTo(3L);
        assertThat(bytes(p)).isEmpty();
    }

    @ServedVersionsTest(ApiKeys.FETCH)
    void anOffsetPastTheLogIsOutOfRange(short version) {
        FetchResponseData.PartitionData p = onlyPartition(
                wire.<FetchResponse>roundTrip(fetch(version, 0, 10L, MAX_BYTES)).data(), version);

        assertThat(p.errorCode()).isEqualTo(Errors.OFFSET_OUT_OF_RANGE.code());
        assertThat(bytes(p)).isEmpty();
    }

    @ServedVersionsTest(value = ApiKeys.FETCH, below = 13)
    void anUnknownTopicNameIsUnknownTopicOrPartition(short version) {
        Map<TopicPartition, FetchRequest.PartitionData> partitions = new LinkedHashMap<>();
        partitions.put(new TopicPartition("missing", 0), partition(Uuid.ZERO_UUID, 0L, MAX_BYTES));

        FetchResponseData data = wire.<FetchResponse>roundTrip(build(version, partitions, NO_WAIT)).data();

        assertThat(data.responses()).singleElement().satisfies(t -> {
            assertThat(t.topic()).isEqualTo("missing");
            assertThat(t.partitions()).singleElement().satisfies(p ->
                    assertThat(p.errorCode()).isEqualTo(Errors.UNKNOWN_TOPIC_OR_PARTITION.code()));
        });
    }

    @ServedVersionsTest(value = ApiKeys.FETCH, from = 13)
    void topicsAreFetchedByIdAndAnUnknownIdIsUnknownTopicId(short version) {
        Uuid unknown = Uuid.fromString("AAAAAAAAAAAAAAAAAAAAAw");
        Map<TopicPartition, FetchRequest.PartitionData> partitions = new LinkedHashMap<>();
        partitions.put(new TopicPartition("orders", 0), partition(ordersId, 2L, MAX_BYTES));
        partitions.put(new TopicPartition("gone", 0), partition(unknown, 0L, MAX_BYTES));

        FetchResponseData data = wire.<FetchResponse>roundTrip(build(version, partitions, NO_WAIT)).data();

        assertThat(data.responses()).hasSize(2);
        FetchResponseData.FetchableTopicResponse known = data.responses().get(0);
        assertThat(known.topicId()).isEqualTo(ordersId);
        assertThat(known.topic()).as("v13+ carries ids only").isEmpty();
        assertThat(bytes(known.partitions().get(0))).isEqualTo(stored(secondBatch, 2L));
        FetchResponseData.FetchableTopicResponse missing = data.responses().get(1);
        assertThat(missing.topicId()).isEqualTo(unknown);
        assertThat(missing.partitions()).singleElement().satisfies(p -> {
            assertThat(p.errorCode()).isEqualTo(Errors.UNKNOWN_TOPIC_ID.code());
            assertThat(bytes(p)).isEmpty();
        });
    }

    @ServedVersionsTest(value = ApiKeys.FETCH, from = 7)
    void aFetchSessionIdIsNotFound(short version) {
        Map<TopicPartition, FetchRequest.PartitionData> partitions = new LinkedHashMap<>();
        partitions.put(new TopicPartition("orders", 0), partition(ordersId, 0L, MAX_BYTES));
        FetchRequest request = FetchRequest.Builder.forConsumer(version, NO_WAIT, 1, partitions)
                .metadata(new FetchMetadata(12345, 1)).build(version);

        FetchResponseData data = wire.<FetchResponse>roundTrip(request).data();

        assertThat(data.errorCode()).isEqualTo(Errors.FETCH_SESSION_ID_NOT_FOUND.code());
        assertThat(data.sessionId()).isZero();
        assertThat(data.responses()).isEmpty();
    }

    @ServedVersionsTest(ApiKeys.FETCH)
    void readCommittedGetsAnEmptyAbortedTransactionList(short version) {
        Map<TopicPartition, FetchRequest.PartitionData> partitions = new LinkedHashMap<>();
        partitions.put(new TopicPartition("orders", 0), partition(ordersId, 0L, MAX_BYTES));
        FetchRequest request = FetchRequest.Builder.forConsumer(version, NO_WAIT, 1, partitions)
                .isolationLevel(IsolationLevel.READ_COMMITTED).build(version);

        FetchResponseData.PartitionData p = onlyPartition(wire.<FetchResponse>roundTrip(request).data(), version);

        assertThat(p.abortedTransactions()).isEmpty();
        assertThat(p.lastStableOffset()).isEqualTo(3L);
        assertThat(bytes(p)).isEqualTo(concat(stored(firstBatch, 0L), stored(secondBatch, 2L)));
    }

    @ServedVersionsTest(ApiKeys.FETCH)
    void readCommittedStopsAtAnOpenTransaction(short version) {
        TxnDriver producer = new TxnDriver(wire, "tx").init();
        producer.addPartitions("orders", 0);
        assertThat(producer.produce("orders", 0, "open")).isEqualTo(Errors.NONE);

        FetchResponseData.PartitionData committed = onlyPartition(
                wire.<FetchResponse>roundTrip(readCommitted(version, 0L)).data(), version);
        FetchResponseData.PartitionData uncommitted = onlyPartition(
                wire.<FetchResponse>roundTrip(fetch(version, 0, 0L, MAX_BYTES)).data(), version);
        FetchResponseData.PartitionData atTheStableOffset = onlyPartition(
                wire.<FetchResponse>roundTrip(readCommitted(version, 3L)).data(), version);

        assertThat(committed.highWatermark()).isEqualTo(4L);
        assertThat(committed.lastStableOffset()).isEqualTo(3L);
        assertThat(bytes(committed)).as("the batches below the open transaction")
                .isEqualTo(concat(stored(firstBatch, 0L), stored(secondBatch, 2L)));
        assertThat(uncommitted.lastStableOffset()).isEqualTo(3L);
        assertThat(TestRecords.bytes((MemoryRecords) uncommitted.records()).length).isGreaterThan(bytes(committed).length);
        assertThat(atTheStableOffset.errorCode()).isZero();
        assertThat(bytes(atTheStableOffset)).isEmpty();
    }

    @ServedVersionsTest(ApiKeys.FETCH)
    void readCommittedNamesTheAbortedTransactionsOfWhatItReturns(short version) {
        TxnDriver producer = new TxnDriver(wire, "tx").init();
        producer.addPartitions("orders", 0);
        producer.produce("orders", 0, "x", "y");
        assertThat(producer.endTxn(false)).isEqualTo(Errors.NONE);

        FetchResponseData.PartitionData p = onlyPartition(wire.<FetchResponse>roundTrip(readCommitted(version, 3L)).data(),
                version);
        FetchResponseData.PartitionData before = onlyPartition(
                wire.<FetchResponse>roundTrip(readCommitted(version, 0L)).data(), version);

        assertThat(p.lastStableOffset()).isEqualTo(6L);
        assertThat(p.abortedTransactions()).singleElement().satisfies(t -> {
            assertThat(t.producerId()).isEqualTo(producer.producerId());
            assertThat(t.firstOffset()).isEqualTo(3L);
        });
        List<Record> records = new ArrayList<>();
        ((MemoryRecords) p.records()).records().forEach(records::add);
        assertThat(records).hasSize(3).as("the aborted records and the ABORT marker").last()
                .satisfies(r -> assertThat(r.offset()).isEqualTo(5L));
        assertThat(before.abortedTransactions()).as("reading from 0 also covers it").hasSize(1);
    }

    @ServedVersionsTest(ApiKeys.FETCH)
    void aLongPollIsAnsweredByAProduceOnTheSameConnectionAndStaysFirst(short version) {
        int fetchId = wire.send(fetch(version, 0, 3L, MAX_BYTES, 30_000));
        assertThat(wire.outboundCount()).as("a fetch waiting for data").isZero();

        MemoryRecords third = TestRecords.batch(3_000L, "d");
        ProduceRequest produce = TestRecords.produce(PRODUCE_VERSION, (short) 1, "orders", 0, third);
        int produceId = wire.send(produce);

        FetchResponseData.PartitionData p = onlyPartition(
                wire.<FetchResponse>receive(fetch(version, 0, 3L, MAX_BYTES, 30_000), fetchId).data(), version);
        assertThat(bytes(p)).isEqualTo(stored(TestRecords.bytes(third), 3L));
        assertThat(p.highWatermark()).isEqualTo(4L);
        ProduceResponse produced = wire.receive(produce, produceId);
        assertThat(produced.data().responses().find("orders").partitionResponses().get(0).baseOffset()).isEqualTo(3L);
        assertThat(broker.scheduler().pending()).as("the fetch's timeout was cancelled").isZero();
    }

    @ServedVersionsTest(ApiKeys.FETCH)
    void aLongPollWithoutDataIsAnsweredEmptyWhenItsWaitRunsOut(short version) {
        FetchRequest request = fetch(version, 0, 3L, MAX_BYTES, 500);
        int id = wire.send(request);

        broker.scheduler().advance(499);
        assertThat(wire.outboundCount()).isZero();
        broker.scheduler().advance(1);

        FetchResponseData.PartitionData p = onlyPartition(wire.<FetchResponse>receive(request, id).data(), version);
        assertThat(p.errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(bytes(p)).isEmpty();
    }

    // ---- helpers ---------------------------------------------------------------------------------

    private Errors produce(MemoryRecords records) {
        ProduceResponse response = wire.roundTrip(TestRecords.produce(PRODUCE_VERSION, (short) -1, "orders", 0, records));
        return Errors.forCode(response.data().responses().find("orders").partitionResponses().get(0).errorCode());
    }

    private FetchRequest readCommitted(short version, long offset) {
        Map<TopicPartition, FetchRequest.PartitionData> partitions = new LinkedHashMap<>();
        partitions.put(new TopicPartition("orders", 0), partition(ordersId, offset, MAX_BYTES));
        return FetchRequest.Builder.forConsumer(version, NO_WAIT, 1, partitions)
                .isolationLevel(IsolationLevel.READ_COMMITTED).build(version);
    }

    private FetchRequest fetch(short version, int partition, long offset, int partitionMaxBytes) {
        return fetch(version, partition, offset, partitionMaxBytes, NO_WAIT);
    }

    private FetchRequest fetch(short version, int partition, long offset, int partitionMaxBytes, int maxWaitMs) {
        Map<TopicPartition, FetchRequest.PartitionData> partitions = new LinkedHashMap<>();
        partitions.put(new TopicPartition("orders", partition), partition(ordersId, offset, partitionMaxBytes));
        return build(version, partitions, maxWaitMs);
    }

    private static FetchRequest build(short version, Map<TopicPartition, FetchRequest.PartitionData> partitions,
                                      int maxWaitMs) {
        return FetchRequest.Builder.forConsumer(version, maxWaitMs, 1, partitions).build(version);
    }

    private static FetchRequest.PartitionData partition(Uuid topicId, long offset, int maxBytes) {
        return new FetchRequest.PartitionData(topicId, offset, -1L, maxBytes, Optional.empty());
    }

    /** The single partition answered, after checking how its topic is named at this version. */
    private FetchResponseData.PartitionData onlyPartition(FetchResponseData data, short version) {
        assertThat(data.responses()).hasSize(1);
        FetchResponseData.FetchableTopicResponse topic = data.responses().get(0);
        if (version >= 13) {
            assertThat(topic.topicId()).isEqualTo(ordersId);
        } else {
            assertThat(topic.topic()).isEqualTo("orders");
            assertThat(topic.topicId()).isEqualTo(Uuid.ZERO_UUID);
        }
        assertThat(topic.partitions()).hasSize(1);
        return topic.partitions().get(0);
    }

    /** A produced batch as the log stores it: base offset assigned, partition leader epoch 0. */
    private static byte[] stored(byte[] produced, long baseOffset) {
        byte[] copy = produced.clone();
        ByteBuffer view = ByteBuffer.wrap(copy);
        view.putLong(0, baseOffset).putInt(PARTITION_LEADER_EPOCH_OFFSET, 0);
        return copy;
    }

    private static byte[] bytes(FetchResponseData.PartitionData p) {
        MemoryRecords records = (MemoryRecords) p.records();
        return records == null ? new byte[0] : TestRecords.bytes(records);
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = new byte[a.length + b.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
