package io.kaas.adapter.wire.handler;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.adapter.wire.support.InMemoryBroker;
import io.kaas.adapter.wire.support.NettyLeakDetection;
import io.kaas.adapter.wire.support.ServedVersionsTest;
import io.kaas.adapter.wire.support.TxnDriver;
import io.kaas.adapter.wire.support.WireChannel;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.message.OffsetFetchRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.OffsetFetchRequest;
import org.apache.kafka.common.requests.OffsetFetchResponse;
import org.apache.kafka.common.requests.TxnOffsetCommitRequest;
import org.apache.kafka.common.requests.TxnOffsetCommitResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;

/** TxnOffsetCommit at every served version: offsets staged until the transaction commits. */
@ExtendWith(NettyLeakDetection.class)
class TxnOffsetCommitHandlerTest {
    private static final TopicPartition IN0 = new TopicPartition("in", 0);

    private final InMemoryBroker broker = new InMemoryBroker();
    private WireChannel wire;
    private TxnDriver producer;

    @BeforeEach
    void openATransaction() {
        broker.createTopic("in", 1);
        wire = new WireChannel(broker.registry());
        producer = new TxnDriver(wire, "tx-1").init();
    }

    @AfterEach
    void disconnect() {
        wire.close();
    }

    @ServedVersionsTest(ApiKeys.TXN_OFFSET_COMMIT)
    void offsetsBecomeVisibleWhenTheTransactionCommits(short version) {
        assertThat(producer.addOffsets("g")).isEqualTo(Errors.NONE);

        assertThat(commit(version, "g", "", -1, 42L)).containsExactlyEntriesOf(Map.of(IN0, Errors.NONE));
        assertThat(committed("g", false)).as("staged, not committed").isEqualTo(-1L);
        assertThat(offsetFetchError("g")).as("require_stable waits").isEqualTo(Errors.UNSTABLE_OFFSET_COMMIT);

        assertThat(producer.endTxn(true)).isEqualTo(Errors.NONE);
        assertThat(committed("g", true)).isEqualTo(42L);
    }

    @ServedVersionsTest(ApiKeys.TXN_OFFSET_COMMIT)
    void abortedOffsetsVanish(short version) {
        producer.addOffsets("g");
        commit(version, "g", "", -1, 42L);

        assertThat(producer.endTxn(false)).isEqualTo(Errors.NONE);

        assertThat(committed("g", true)).isEqualTo(-1L);
    }

    @ServedVersionsTest(ApiKeys.TXN_OFFSET_COMMIT)
    void aGroupNotAddedToTheTransactionIsRefused(short version) {
        assertThat(commit(version, "g", "", -1, 42L)).containsEntry(IN0, Errors.INVALID_TXN_STATE);
        assertThat(commit(version, "", "", -1, 42L)).containsEntry(IN0, Errors.INVALID_GROUP_ID);
    }

    @ServedVersionsTest(value = ApiKeys.TXN_OFFSET_COMMIT, from = 3)
    void aMemberTheGroupDoesNotKnowIsRefused(short version) {
        producer.addOffsets("g");

        assertThat(commit(version, "g", "stranger", 3, 42L)).containsEntry(IN0, Errors.UNKNOWN_MEMBER_ID);
    }

    private Map<TopicPartition, Errors> commit(short version, String group, String memberId, int generation, long offset) {
        TxnOffsetCommitRequest request = new TxnOffsetCommitRequest.Builder("tx-1", group, producer.producerId(),
                producer.epoch(), Map.of(IN0, new TxnOffsetCommitRequest.CommittedOffset(offset, "", Optional.empty())),
                memberId, generation, Optional.empty()).build(version);
        return wire.<TxnOffsetCommitResponse>roundTrip(request).errors();
    }

    private long committed(String group, boolean requireStable) {
        OffsetFetchResponse response = wire.roundTrip(new OffsetFetchRequest.Builder(group, requireStable, List.of(IN0),
                false).build((short) 7));
        return response.partitionDataMap(group).get(IN0).offset;
    }

    private Errors offsetFetchError(String group) {
        OffsetFetchResponse response = wire.roundTrip(new OffsetFetchRequest.Builder(group, true, List.of(IN0), false)
                .build((short) 7));
        return response.partitionDataMap(group).get(IN0).error;
    }
}
