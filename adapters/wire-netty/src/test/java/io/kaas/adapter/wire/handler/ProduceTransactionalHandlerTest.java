package io.kaas.adapter.wire.handler;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.adapter.wire.support.InMemoryBroker;
import io.kaas.adapter.wire.support.NettyLeakDetection;
import io.kaas.adapter.wire.support.ServedVersions;
import io.kaas.adapter.wire.support.TestRecords;
import io.kaas.adapter.wire.support.TxnDriver;
import io.kaas.adapter.wire.support.WireChannel;
import java.util.stream.Stream;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.MemoryRecords;
import org.apache.kafka.common.requests.ProduceRequest;
import org.apache.kafka.common.requests.ProduceResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Transactional batches at every served Produce version: the partition must have been added to
 * the producer's transaction (KIP-890 verification), the request must name the transactional id,
 * and a fenced producer's batches are refused.
 */
@ExtendWith(NettyLeakDetection.class)
class ProduceTransactionalHandlerTest {
    private final InMemoryBroker broker = new InMemoryBroker();
    private WireChannel wire;
    private TxnDriver producer;

    static Stream<Short> versions() {
        return ServedVersions.of(ApiKeys.PRODUCE);
    }

    @BeforeEach
    void connect() {
        broker.createTopic("out", 2);
        wire = new WireChannel(broker.registry());
        producer = new TxnDriver(wire, "tx-1").init();
        producer.addPartitions("out", 0);
    }

    @AfterEach
    void disconnect() {
        wire.close();
    }

    @ParameterizedTest(name = "v{0}")
    @MethodSource("versions")
    void aPartitionOfTheTransactionTakesTheBatch(short version) {
        ProduceResponseData.PartitionProduceResponse r = produce(version, "tx-1", 0, producer.epoch());

        assertThat(r.errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(r.baseOffset()).isZero();
    }

    @ParameterizedTest(name = "v{0}")
    @MethodSource("versions")
    void aPartitionNotAddedIsInvalidTxnState(short version) {
        ProduceResponseData.PartitionProduceResponse r = produce(version, "tx-1", 1, producer.epoch());

        assertThat(r.errorCode()).isEqualTo(Errors.INVALID_TXN_STATE.code());
        if (version >= 8) {
            assertThat(r.errorMessage()).isEqualTo("Partition was not added to the transaction");
        }
        assertThat(broker.topics().log(new io.kaas.domain.topic.TopicPartition("out", 1)).orElseThrow().offsets()
                .highWatermark()).isZero();
    }

    @ParameterizedTest(name = "v{0}")
    @MethodSource("versions")
    void transactionalBatchesNeedATransactionalId(short version) {
        assertThat(produce(version, null, 0, producer.epoch()).errorCode())
                .isEqualTo(Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED.code());
    }

    @ParameterizedTest(name = "v{0}")
    @MethodSource("versions")
    void aFencedProducerIsRefusedWithProducesFencingCode(short version) {
        new TxnDriver(wire, "tx-1").init(); // a new session: the coordinator bumps the epoch

        // Apache 3.7 answers the coordinator's PRODUCER_FENCED as INVALID_PRODUCER_EPOCH on Produce, at every version.
        assertThat(produce(version, "tx-1", 0, producer.epoch()).errorCode())
                .isEqualTo(Errors.INVALID_PRODUCER_EPOCH.code());
    }

    private ProduceResponseData.PartitionProduceResponse produce(short version, String transactionalId, int partition,
                                                                short epoch) {
        MemoryRecords batch = TxnDriver.batch(producer.producerId(), epoch, 0, "v");
        ProduceRequest request = TestRecords.produce(version, (short) -1, "out", partition, batch);
        request.data().setTransactionalId(transactionalId);
        ProduceResponse response = wire.roundTrip(request);
        return response.data().responses().find("out").partitionResponses().get(0);
    }
}
