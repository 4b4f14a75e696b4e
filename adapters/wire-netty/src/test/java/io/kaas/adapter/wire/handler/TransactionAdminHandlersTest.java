package io.kaas.adapter.wire.handler;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.adapter.wire.support.InMemoryBroker;
import io.kaas.adapter.wire.support.NettyLeakDetection;
import io.kaas.adapter.wire.support.ServedVersions;
import io.kaas.adapter.wire.support.TxnDriver;
import io.kaas.adapter.wire.support.WireChannel;
import java.util.List;
import java.util.stream.Stream;
import org.apache.kafka.common.message.DescribeProducersRequestData;
import org.apache.kafka.common.message.DescribeProducersResponseData;
import org.apache.kafka.common.message.DescribeTransactionsRequestData;
import org.apache.kafka.common.message.DescribeTransactionsResponseData;
import org.apache.kafka.common.message.ListTransactionsRequestData;
import org.apache.kafka.common.message.ListTransactionsResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.DescribeProducersRequest;
import org.apache.kafka.common.requests.DescribeProducersResponse;
import org.apache.kafka.common.requests.DescribeTransactionsRequest;
import org.apache.kafka.common.requests.DescribeTransactionsResponse;
import org.apache.kafka.common.requests.ListTransactionsRequest;
import org.apache.kafka.common.requests.ListTransactionsResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The KIP-664 admin views at every served version: ListTransactions, DescribeTransactions and
 * DescribeProducers, over one open and one idle transactional id.
 */
@ExtendWith(NettyLeakDetection.class)
class TransactionAdminHandlersTest {
    private final InMemoryBroker broker = new InMemoryBroker();
    private WireChannel wire;
    private TxnDriver open;
    private TxnDriver idle;

    static Stream<Short> listVersions() {
        return ServedVersions.of(ApiKeys.LIST_TRANSACTIONS);
    }

    static Stream<Short> describeVersions() {
        return ServedVersions.of(ApiKeys.DESCRIBE_TRANSACTIONS);
    }

    static Stream<Short> producersVersions() {
        return ServedVersions.of(ApiKeys.DESCRIBE_PRODUCERS);
    }

    @BeforeEach
    void twoTransactionalIds() {
        broker.createTopic("out", 2);
        wire = new WireChannel(broker.registry());
        open = new TxnDriver(wire, "open").init();
        open.addPartitions("out", 0, 1);
        open.produce("out", 1, "a", "b");
        idle = new TxnDriver(wire, "idle").init();
    }

    @AfterEach
    void disconnect() {
        wire.close();
    }

    @ParameterizedTest(name = "v{0}")
    @MethodSource("listVersions")
    void listsEveryIdFilteredByStateAndProducer(short version) {
        ListTransactionsResponseData all = list(version, List.of(), List.of());
        ListTransactionsResponseData ongoing = list(version, List.of("Ongoing", "Bogus"), List.of());
        ListTransactionsResponseData byProducer = list(version, List.of(), List.of(idle.producerId()));

        assertThat(all.errorCode()).isZero();
        assertThat(all.transactionStates()).extracting(ListTransactionsResponseData.TransactionState::transactionalId)
                .containsExactlyInAnyOrder("open", "idle");
        assertThat(ongoing.transactionStates()).singleElement().satisfies(t -> {
            assertThat(t.transactionalId()).isEqualTo("open");
            assertThat(t.producerId()).isEqualTo(open.producerId());
            assertThat(t.transactionState()).isEqualTo("Ongoing");
        });
        assertThat(ongoing.unknownStateFilters()).containsExactly("Bogus");
        assertThat(byProducer.transactionStates()).extracting(ListTransactionsResponseData.TransactionState::transactionState)
                .containsExactly("Empty");
    }

    @ParameterizedTest(name = "v{0}")
    @MethodSource("describeVersions")
    void describesEachIdOrSaysItIsNotFound(short version) {
        DescribeTransactionsResponseData data = wire.<DescribeTransactionsResponse>roundTrip(
                new DescribeTransactionsRequest.Builder(new DescribeTransactionsRequestData()
                        .setTransactionalIds(List.of("open", "idle", "unknown"))).build(version)).data();

        assertThat(data.transactionStates()).hasSize(3);
        DescribeTransactionsResponseData.TransactionState first = data.transactionStates().get(0);
        assertThat(first.errorCode()).isZero();
        assertThat(first.transactionState()).isEqualTo("Ongoing");
        assertThat(first.producerId()).isEqualTo(open.producerId());
        assertThat(first.producerEpoch()).isEqualTo(open.epoch());
        assertThat(first.transactionTimeoutMs()).isEqualTo(TxnDriver.TIMEOUT_MS);
        assertThat(first.transactionStartTimeMs()).isEqualTo(broker.clock().nowMs());
        assertThat(first.topics().find("out").partitions()).containsExactly(0, 1);
        assertThat(data.transactionStates().get(1).transactionState()).isEqualTo("Empty");
        assertThat(data.transactionStates().get(1).transactionStartTimeMs()).isEqualTo(-1L);
        assertThat(data.transactionStates().get(2).errorCode()).isEqualTo(Errors.TRANSACTIONAL_ID_NOT_FOUND.code());
    }

    @ParameterizedTest(name = "v{0}")
    @MethodSource("producersVersions")
    void describesThePartitionsProducers(short version) {
        DescribeProducersRequestData request = new DescribeProducersRequestData();
        request.topics().add(new DescribeProducersRequestData.TopicRequest().setName("out").setPartitionIndexes(List.of(0, 1, 9)));
        request.topics().add(new DescribeProducersRequestData.TopicRequest().setName("bad name!").setPartitionIndexes(List.of(0)));

        DescribeProducersResponseData data = wire.<DescribeProducersResponse>roundTrip(
                new DescribeProducersRequest.Builder(request).build(version)).data();

        List<DescribeProducersResponseData.PartitionResponse> out = data.topics().get(0).partitions();
        assertThat(out.get(0).activeProducers()).isEmpty();
        assertThat(out.get(1).errorCode()).isZero();
        assertThat(out.get(1).activeProducers()).singleElement().satisfies(p -> {
            assertThat(p.producerId()).isEqualTo(open.producerId());
            assertThat(p.producerEpoch()).isEqualTo(open.epoch());
            assertThat(p.lastSequence()).isEqualTo(1);
            assertThat(p.currentTxnStartOffset()).isZero();
            assertThat(p.coordinatorEpoch()).isEqualTo(-1);
        });
        assertThat(out.get(2).errorCode()).isEqualTo(Errors.UNKNOWN_TOPIC_OR_PARTITION.code());
        assertThat(data.topics().get(1).partitions().get(0).errorCode()).isEqualTo(Errors.INVALID_TOPIC_EXCEPTION.code());
    }

    private ListTransactionsResponseData list(short version, List<String> states, List<Long> producerIds) {
        return wire.<ListTransactionsResponse>roundTrip(new ListTransactionsRequest.Builder(new ListTransactionsRequestData()
                .setStateFilters(states).setProducerIdFilters(producerIds)).build(version)).data();
    }
}
