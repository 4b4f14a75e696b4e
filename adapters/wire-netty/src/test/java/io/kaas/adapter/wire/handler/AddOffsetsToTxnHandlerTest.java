package io.kaas.adapter.wire.handler;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.adapter.wire.support.InMemoryBroker;
import io.kaas.adapter.wire.support.NettyLeakDetection;
import io.kaas.adapter.wire.support.ServedVersions;
import io.kaas.adapter.wire.support.TxnDriver;
import io.kaas.adapter.wire.support.WireChannel;
import java.util.stream.Stream;
import org.apache.kafka.common.message.AddOffsetsToTxnRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AddOffsetsToTxnRequest;
import org.apache.kafka.common.requests.AddOffsetsToTxnResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** AddOffsetsToTxn at every served version. */
@ExtendWith(NettyLeakDetection.class)
class AddOffsetsToTxnHandlerTest {
    private final InMemoryBroker broker = new InMemoryBroker();
    private WireChannel wire;
    private TxnDriver producer;

    static Stream<Short> versions() {
        return ServedVersions.of(ApiKeys.ADD_OFFSETS_TO_TXN);
    }

    @BeforeEach
    void connect() {
        wire = new WireChannel(broker.registry());
        producer = new TxnDriver(wire, "tx-1").init();
    }

    @AfterEach
    void disconnect() {
        wire.close();
    }

    @ParameterizedTest(name = "v{0}")
    @MethodSource("versions")
    void theGroupJoinsTheTransaction(short version) {
        assertThat(addOffsets(version, "tx-1", producer.producerId(), producer.epoch(), "g")).isEqualTo(Errors.NONE);
        assertThat(addOffsets(version, "tx-1", producer.producerId(), producer.epoch(), "g")).as("again").isEqualTo(Errors.NONE);
    }

    @ParameterizedTest(name = "v{0}")
    @MethodSource("versions")
    void anUnknownProducerOrAStaleEpochIsRefused(short version) {
        assertThat(addOffsets(version, "unknown", 1L, (short) 0, "g")).isEqualTo(Errors.INVALID_PRODUCER_ID_MAPPING);
        assertThat(addOffsets(version, "", 1L, (short) 0, "g")).isEqualTo(Errors.INVALID_REQUEST);
        assertThat(addOffsets(version, "tx-1", producer.producerId(), (short) (producer.epoch() + 1), "g"))
                .isEqualTo(version >= 2 ? Errors.PRODUCER_FENCED : Errors.INVALID_PRODUCER_EPOCH);
    }

    private Errors addOffsets(short version, String transactionalId, long producerId, short epoch, String group) {
        return Errors.forCode(wire.<AddOffsetsToTxnResponse>roundTrip(new AddOffsetsToTxnRequest.Builder(
                new AddOffsetsToTxnRequestData().setTransactionalId(transactionalId).setProducerId(producerId)
                        .setProducerEpoch(epoch).setGroupId(group)).build(version)).data().errorCode());
    }
}
