package io.kaas.adapter.wire.handler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.kaas.adapter.wire.support.InMemoryBroker;
import io.kaas.adapter.wire.support.NettyLeakDetection;
import io.kaas.adapter.wire.support.ServedVersions;
import io.kaas.adapter.wire.support.WireChannel;
import java.util.List;
import java.util.stream.Stream;
import org.apache.kafka.common.message.FindCoordinatorRequestData;
import org.apache.kafka.common.message.FindCoordinatorResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.FindCoordinatorRequest;
import org.apache.kafka.common.requests.FindCoordinatorResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** FindCoordinator at every served version: one key up to v3, a batch of keys from v4 (KIP-699). */
@ExtendWith(NettyLeakDetection.class)
class FindCoordinatorHandlerTest {
    private static final byte GROUP = FindCoordinatorRequest.CoordinatorType.GROUP.id();
    private static final byte TRANSACTION = FindCoordinatorRequest.CoordinatorType.TRANSACTION.id();
    private static final byte NO_SUCH_TYPE = 7;

    private final InMemoryBroker broker = new InMemoryBroker();
    private WireChannel wire;

    static Stream<Short> versions() {
        return ServedVersions.of(ApiKeys.FIND_COORDINATOR);
    }

    static Stream<Short> singleKeyVersions() {
        return ServedVersions.below(ApiKeys.FIND_COORDINATOR, 4);
    }

    static Stream<Short> batchedVersions() {
        return ServedVersions.from(ApiKeys.FIND_COORDINATOR, 4);
    }

    static Stream<Short> versionsWithKeyType() {
        return ServedVersions.from(ApiKeys.FIND_COORDINATOR, 1);
    }

    @BeforeEach
    void connect() {
        wire = new WireChannel(broker.registry());
    }

    @AfterEach
    void disconnect() {
        wire.close();
    }

    @ParameterizedTest(name = "v{0}")
    @MethodSource("singleKeyVersions")
    void aGroupIsCoordinatedByTheBroker(short version) {
        FindCoordinatorResponseData data = wire.<FindCoordinatorResponse>roundTrip(single(version, GROUP, "payments")).data();

        assertThat(data.errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(data.nodeId()).isEqualTo(InMemoryBroker.BROKER_ID);
        assertThat(data.host()).isEqualTo(InMemoryBroker.HOST);
        assertThat(data.port()).isEqualTo(InMemoryBroker.PORT);
        assertThat(data.coordinators()).isEmpty();
    }

    @ParameterizedTest(name = "v{0}")
    @MethodSource("batchedVersions")
    void everyGroupOfABatchIsAnswered(short version) {
        FindCoordinatorResponseData data = wire.<FindCoordinatorResponse>roundTrip(
                batch(version, GROUP, "payments", "billing")).data();

        assertThat(data.coordinators()).extracting(FindCoordinatorResponseData.Coordinator::key)
                .containsExactly("payments", "billing");
        for (FindCoordinatorResponseData.Coordinator c : data.coordinators()) {
            assertThat(c.errorCode()).isEqualTo(Errors.NONE.code());
            assertThat(c.nodeId()).isEqualTo(InMemoryBroker.BROKER_ID);
            assertThat(c.host()).isEqualTo(InMemoryBroker.HOST);
            assertThat(c.port()).isEqualTo(InMemoryBroker.PORT);
        }
    }

    @ParameterizedTest(name = "v{0}")
    @MethodSource("versionsWithKeyType")
    void aTransactionalIdIsRoutedLikeAGroup(short version) {
        FindCoordinatorResponseData data = wire.<FindCoordinatorResponse>roundTrip(version >= 4
                ? batch(version, TRANSACTION, "tx-1", "tx-2") : single(version, TRANSACTION, "tx-1")).data();

        if (version >= 4) {
            assertThat(data.coordinators()).extracting(FindCoordinatorResponseData.Coordinator::key, c -> c.errorCode(),
                    c -> c.nodeId()).containsExactly(
                            tuple("tx-1", Errors.NONE.code(), InMemoryBroker.BROKER_ID),
                            tuple("tx-2", Errors.NONE.code(), InMemoryBroker.BROKER_ID));
        } else {
            assertThat(data.errorCode()).isEqualTo(Errors.NONE.code());
            assertThat(data.nodeId()).isEqualTo(InMemoryBroker.BROKER_ID);
        }
    }

    @ParameterizedTest(name = "v{0}")
    @MethodSource("versionsWithKeyType")
    void anUnknownKeyTypeIsAnInvalidRequest(short version) {
        FindCoordinatorResponse response = wire.roundTrip(version >= 4 ? batch(version, NO_SUCH_TYPE, "k1", "k2")
                : single(version, NO_SUCH_TYPE, "k1"));

        assertFailed(response, version, Errors.INVALID_REQUEST, List.of("k1", "k2"));
        assertThat(wire.isOpen()).isTrue();
    }

    private static void assertFailed(FindCoordinatorResponse response, short version, Errors error, List<String> keys) {
        FindCoordinatorResponseData data = response.data();
        if (version >= 4) {
            assertThat(data.coordinators()).extracting(FindCoordinatorResponseData.Coordinator::key)
                    .containsExactlyElementsOf(keys);
            for (FindCoordinatorResponseData.Coordinator c : data.coordinators()) {
                assertThat(c.errorCode()).isEqualTo(error.code());
                assertThat(c.nodeId()).isEqualTo(-1);
                assertThat(c.port()).isEqualTo(-1);
            }
        } else {
            assertThat(data.errorCode()).isEqualTo(error.code());
            assertThat(data.nodeId()).isEqualTo(-1);
            assertThat(data.host()).isEmpty();
            assertThat(data.port()).isEqualTo(-1);
        }
    }

    private static FindCoordinatorRequest single(short version, byte keyType, String key) {
        return new FindCoordinatorRequest.Builder(new FindCoordinatorRequestData().setKeyType(keyType).setKey(key))
                .build(version);
    }

    private static FindCoordinatorRequest batch(short version, byte keyType, String... keys) {
        return new FindCoordinatorRequest.Builder(new FindCoordinatorRequestData().setKeyType(keyType)
                .setCoordinatorKeys(List.of(keys))).build(version);
    }
}
