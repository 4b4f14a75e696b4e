package io.kaas.adapter.wire.handler;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.adapter.wire.support.InMemoryBroker;
import io.kaas.adapter.wire.support.NettyLeakDetection;
import io.kaas.adapter.wire.support.ServedVersions;
import io.kaas.adapter.wire.support.TxnDriver;
import io.kaas.adapter.wire.support.WireChannel;
import io.kaas.domain.log.LogOffsets;
import io.kaas.domain.topic.TopicPartition;
import java.util.stream.Stream;
import org.apache.kafka.common.message.EndTxnRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.EndTxnRequest;
import org.apache.kafka.common.requests.EndTxnResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** EndTxn at every served version: answered once the markers are in the logs. */
@ExtendWith(NettyLeakDetection.class)
class EndTxnHandlerTest {
    private static final TopicPartition OUT0 = new TopicPartition("out", 0);

    private final InMemoryBroker broker = new InMemoryBroker();
    private WireChannel wire;
    private TxnDriver producer;

    static Stream<Short> versions() {
        return ServedVersions.of(ApiKeys.END_TXN);
    }

    @BeforeEach
    void openATransaction() {
        broker.createTopic("out", 1);
        wire = new WireChannel(broker.registry());
        producer = new TxnDriver(wire, "tx-1").init();
        assertThat(producer.addPartitions("out", 0)).isEqualTo(Errors.NONE);
        assertThat(producer.produce("out", 0, "a", "b")).isEqualTo(Errors.NONE);
        assertThat(offsets().lastStableOffset()).as("the transaction holds the stable offset").isZero();
    }

    @AfterEach
    void disconnect() {
        wire.close();
    }

    @ParameterizedTest(name = "v{0}")
    @MethodSource("versions")
    void aCommitIsAnsweredWithTheMarkerWritten(short version) {
        assertThat(end(version, producer.producerId(), producer.epoch(), true)).isEqualTo(Errors.NONE);

        assertThat(offsets().highWatermark()).as("two records and the COMMIT marker").isEqualTo(3L);
        assertThat(offsets().lastStableOffset()).isEqualTo(3L);
        assertThat(end(version, producer.producerId(), producer.epoch(), true)).as("a retry").isEqualTo(Errors.NONE);
        assertThat(offsets().highWatermark()).as("no second marker").isEqualTo(3L);
    }

    @ParameterizedTest(name = "v{0}")
    @MethodSource("versions")
    void anAbortIsAnsweredWithTheMarkerWritten(short version) {
        assertThat(end(version, producer.producerId(), producer.epoch(), false)).isEqualTo(Errors.NONE);

        assertThat(offsets().lastStableOffset()).isEqualTo(3L);
        assertThat(end(version, producer.producerId(), producer.epoch(), true)).as("the other outcome")
                .isEqualTo(Errors.INVALID_TXN_STATE);
    }

    @ParameterizedTest(name = "v{0}")
    @MethodSource("versions")
    void endingWithoutATransactionIsInvalidTxnState(short version) {
        TxnDriver idle = new TxnDriver(wire, "tx-2").init();

        assertThat(end(version, "tx-2", idle.producerId(), idle.epoch(), true)).isEqualTo(Errors.INVALID_TXN_STATE);
        assertThat(end(version, "tx-2", idle.producerId() + 99, idle.epoch(), true))
                .isEqualTo(Errors.INVALID_PRODUCER_ID_MAPPING);
        assertThat(end(version, "never-seen", 1L, (short) 0, true)).isEqualTo(Errors.INVALID_PRODUCER_ID_MAPPING);
    }

    @ParameterizedTest(name = "v{0}")
    @MethodSource("versions")
    void aStaleEpochIsFenced(short version) {
        assertThat(end(version, producer.producerId(), (short) (producer.epoch() - 1), true))
                .isEqualTo(version >= 2 ? Errors.PRODUCER_FENCED : Errors.INVALID_PRODUCER_EPOCH);
        assertThat(offsets().lastStableOffset()).as("still open").isZero();
    }

    private Errors end(short version, long producerId, short epoch, boolean commit) {
        return end(version, "tx-1", producerId, epoch, commit);
    }

    private Errors end(short version, String transactionalId, long producerId, short epoch, boolean commit) {
        return Errors.forCode(wire.<EndTxnResponse>roundTrip(new EndTxnRequest.Builder(new EndTxnRequestData()
                .setTransactionalId(transactionalId).setProducerId(producerId).setProducerEpoch(epoch).setCommitted(commit))
                .build(version)).data().errorCode());
    }

    private LogOffsets offsets() {
        return broker.topics().log(OUT0).orElseThrow().offsets();
    }
}
