package io.kaas.adapter.wire.handler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.kaas.adapter.wire.support.HandlerTestBase;
import io.kaas.adapter.wire.support.InMemoryBroker;
import io.kaas.adapter.wire.support.ServedVersionsTest;
import java.util.List;
import org.apache.kafka.common.message.FindCoordinatorRequestData;
import org.apache.kafka.common.message.FindCoordinatorResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.FindCoordinatorRequest;
import org.apache.kafka.common.requests.FindCoordinatorResponse;

/** FindCoordinator at every served version: one key up to v3, a batch of keys from v4 (KIP-699). */
class FindCoordinatorHandlerTest extends HandlerTestBase {
    private static final byte GROUP = FindCoordinatorRequest.CoordinatorType.GROUP.id();
    private static final byte TRANSACTION = FindCoordinatorRequest.CoordinatorType.TRANSACTION.id();
    private static final byte NO_SUCH_TYPE = 7;

    @ServedVersionsTest(value = ApiKeys.FIND_COORDINATOR, below = 4) // one key
    void aGroupIsCoordinatedByTheBroker(short version) {
        FindCoordinatorResponseData data = wire.<FindCoordinatorResponse>roundTrip(single(version, GROUP, "payments")).data();

        assertThat(data.errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(data.nodeId()).isEqualTo(InMemoryBroker.BROKER_ID);
        assertThat(data.host()).isEqualTo(InMemoryBroker.HOST);
        assertThat(data.port()).isEqualTo(InMemoryBroker.PORT);
        assertThat(data.coordinators()).isEmpty();
    }

    @ServedVersionsTest(value = ApiKeys.FIND_COORDINATOR, from = 4) // batched keys (KIP-699)
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

    @ServedVersionsTest(value = ApiKeys.FIND_COORDINATOR, from = 1) // v1: key_type
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

    @ServedVersionsTest(value = ApiKeys.FIND_COORDINATOR, from = 1) // v1: key_type
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
