package io.kaas.adapter.wire.handler;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.adapter.wire.support.InMemoryBroker;
import io.kaas.adapter.wire.support.NettyLeakDetection;
import io.kaas.adapter.wire.support.ServedVersionsTest;
import io.kaas.adapter.wire.support.TxnDriver;
import io.kaas.adapter.wire.support.WireChannel;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.message.AddPartitionsToTxnRequestData;
import org.apache.kafka.common.message.AddPartitionsToTxnResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AddPartitionsToTxnRequest;
import org.apache.kafka.common.requests.AddPartitionsToTxnResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;

/** AddPartitionsToTxn at every served version: the producer's form (v0-3) and the brokers' batched form (v4). */
@ExtendWith(NettyLeakDetection.class)
class AddPartitionsToTxnHandlerTest {
    private static final TopicPartition OUT0 = new TopicPartition("out", 0);
    private static final TopicPartition OUT1 = new TopicPartition("out", 1);

    private final InMemoryBroker broker = new InMemoryBroker();
    private WireChannel wire;
    private TxnDriver producer;

    @BeforeEach
    void connect() {
        broker.createTopic("out", 2);
        wire = new WireChannel(broker.registry());
        producer = new TxnDriver(wire, "tx-1").init();
    }

    @AfterEach
    void disconnect() {
        wire.close();
    }

    @ServedVersionsTest(value = ApiKeys.ADD_PARTITIONS_TO_TXN, below = 4)
    void addsThePartitionsToTheTransaction(short version) {
        Map<TopicPartition, Errors> errors = add(version, "tx-1", producer.producerId(), producer.epoch(), OUT0, OUT1);

        assertThat(errors).containsExactlyInAnyOrderEntriesOf(Map.of(OUT0, Errors.NONE, OUT1, Errors.NONE));
        assertThat(broker.transactions().coordinator().describe(List.of("tx-1")).toCompletableFuture().join().get(0).state())
                .isEqualTo("Ongoing");
    }

    @ServedVersionsTest(value = ApiKeys.ADD_PARTITIONS_TO_TXN, below = 4)
    void anUnknownPartitionFailsTheRequest(short version) {
        TopicPartition missing = new TopicPartition("out", 7);

        Map<TopicPartition, Errors> errors = add(version, "tx-1", producer.producerId(), producer.epoch(), OUT0, missing);

        assertThat(errors).containsExactlyInAnyOrderEntriesOf(Map.of(OUT0, Errors.OPERATION_NOT_ATTEMPTED,
                missing, Errors.UNKNOWN_TOPIC_OR_PARTITION));
    }

    @ServedVersionsTest(value = ApiKeys.ADD_PARTITIONS_TO_TXN, below = 4)
    void anUnknownProducerOrAStaleEpochIsRefused(short version) {
        assertThat(add(version, "tx-1", producer.producerId() + 1, producer.epoch(), OUT0))
                .containsEntry(OUT0, Errors.INVALID_PRODUCER_ID_MAPPING);
        assertThat(add(version, "nobody", producer.producerId(), producer.epoch(), OUT0))
                .containsEntry(OUT0, Errors.INVALID_PRODUCER_ID_MAPPING);
        new TxnDriver(wire, "tx-1").init(); // a new session fences this one

        // PRODUCER_FENCED is a v2 code; v0-1 callers get INVALID_PRODUCER_EPOCH, as from Apache.
        assertThat(add(version, "tx-1", producer.producerId(), producer.epoch(), OUT0))
                .containsEntry(OUT0, version >= 2 ? Errors.PRODUCER_FENCED : Errors.INVALID_PRODUCER_EPOCH);
    }

    @ServedVersionsTest(value = ApiKeys.ADD_PARTITIONS_TO_TXN, from = 4)
    void theBatchedFormAddsOrOnlyVerifiesEachTransaction(short version) {
        TxnDriver other = new TxnDriver(wire, "tx-2").init();
        other.addPartitions("out", 0);
        AddPartitionsToTxnRequestData.AddPartitionsToTxnTransactionCollection txns =
                new AddPartitionsToTxnRequestData.AddPartitionsToTxnTransactionCollection();
        txns.add(transaction("tx-1", producer, false, 1));
        txns.add(transaction("tx-2", other, true, 0, 1));

        AddPartitionsToTxnResponse response = wire.roundTrip(AddPartitionsToTxnRequest.Builder.forBroker(txns).build(version));

        assertThat(response.data().errorCode()).isZero();
        assertThat(response.errors().get("tx-1")).containsExactlyEntriesOf(Map.of(OUT1, Errors.NONE));
        assertThat(response.errors().get("tx-2")).as("verify only: nothing is added")
                .containsExactlyInAnyOrderEntriesOf(Map.of(OUT0, Errors.NONE, OUT1, Errors.INVALID_TXN_STATE));
        assertThat(broker.transactions().coordinator().describe(List.of("tx-2")).toCompletableFuture().join().get(0)
                .partitions()).hasSize(1);
    }

    private Map<TopicPartition, Errors> add(short version, String transactionalId, long producerId, short epoch,
                                            TopicPartition... partitions) {
        AddPartitionsToTxnResponse response = wire.roundTrip(AddPartitionsToTxnRequest.Builder
                .forClient(transactionalId, producerId, epoch, List.of(partitions)).build(version));
        return response.errors().get(AddPartitionsToTxnResponse.V3_AND_BELOW_TXN_ID);
    }

    private static AddPartitionsToTxnRequestData.AddPartitionsToTxnTransaction transaction(String id, TxnDriver producer,
                                                                                          boolean verifyOnly,
                                                                                          int... partitions) {
        AddPartitionsToTxnRequestData.AddPartitionsToTxnTopicCollection topics =
                new AddPartitionsToTxnRequestData.AddPartitionsToTxnTopicCollection();
        topics.add(new AddPartitionsToTxnRequestData.AddPartitionsToTxnTopic().setName("out")
                .setPartitions(Arrays.stream(partitions).boxed().toList()));
        return new AddPartitionsToTxnRequestData.AddPartitionsToTxnTransaction().setTransactionalId(id)
                .setProducerId(producer.producerId()).setProducerEpoch(producer.epoch()).setVerifyOnly(verifyOnly)
                .setTopics(topics);
    }
}
