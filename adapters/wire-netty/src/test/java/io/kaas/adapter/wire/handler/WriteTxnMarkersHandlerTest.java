package io.kaas.adapter.wire.handler;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.adapter.wire.support.InMemoryBroker;
import io.kaas.adapter.wire.support.NettyLeakDetection;
import io.kaas.adapter.wire.support.ServedVersions;
import io.kaas.adapter.wire.support.TxnDriver;
import io.kaas.adapter.wire.support.WireChannel;
import io.kaas.domain.log.LogOffsets;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.TransactionResult;
import org.apache.kafka.common.requests.WriteTxnMarkersRequest;
import org.apache.kafka.common.requests.WriteTxnMarkersResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** WriteTxnMarkers at every served version: the receiving leader's side of Apache's marker RPC. */
@ExtendWith(NettyLeakDetection.class)
class WriteTxnMarkersHandlerTest {
    private static final TopicPartition OUT0 = new TopicPartition("out", 0);

    private final InMemoryBroker broker = new InMemoryBroker();
    private WireChannel wire;
    private TxnDriver producer;

    static Stream<Short> versions() {
        return ServedVersions.of(ApiKeys.WRITE_TXN_MARKERS);
    }

    @BeforeEach
    void openATransaction() {
        broker.createTopic("out", 1);
        wire = new WireChannel(broker.registry());
        producer = new TxnDriver(wire, "tx-1").init();
        producer.addPartitions("out", 0);
        producer.produce("out", 0, "a");
    }

    @AfterEach
    void disconnect() {
        wire.close();
    }

    @ParameterizedTest(name = "v{0}")
    @MethodSource("versions")
    void aMarkerEndsTheTransactionOnThePartition(short version) {
        TopicPartition unknown = new TopicPartition("nowhere", 0);

        Map<TopicPartition, Errors> errors = write(version, producer.epoch(), TransactionResult.ABORT, OUT0, unknown);

        assertThat(errors).containsExactlyInAnyOrderEntriesOf(Map.of(OUT0, Errors.NONE,
                unknown, Errors.UNKNOWN_TOPIC_OR_PARTITION));
        LogOffsets offsets = broker.topics().log(new io.kaas.domain.topic.TopicPartition("out", 0)).orElseThrow().offsets();
        assertThat(offsets.highWatermark()).isEqualTo(2L);
        assertThat(offsets.lastStableOffset()).isEqualTo(2L);
    }

    @ParameterizedTest(name = "v{0}")
    @MethodSource("versions")
    void aMarkerFromAnOlderEpochIsRefused(short version) {
        write(version, (short) (producer.epoch() + 1), TransactionResult.ABORT, OUT0);

        assertThat(write(version, producer.epoch(), TransactionResult.COMMIT, OUT0))
                .containsEntry(OUT0, Errors.INVALID_PRODUCER_EPOCH);
    }

    private Map<TopicPartition, Errors> write(short version, short epoch, TransactionResult result,
                                              TopicPartition... partitions) {
        WriteTxnMarkersRequest request = new WriteTxnMarkersRequest.Builder(ApiKeys.WRITE_TXN_MARKERS.latestVersion(),
                List.of(new WriteTxnMarkersRequest.TxnMarkerEntry(producer.producerId(), epoch, 0, result,
                        List.of(partitions)))).build(version);
        WriteTxnMarkersResponse response = wire.roundTrip(request);
        return response.errorsByProducerId().get(producer.producerId());
    }
}
