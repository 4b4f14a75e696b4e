package io.kaas.adapter.wire.handler;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.adapter.wire.support.HandlerTestBase;
import io.kaas.adapter.wire.support.InMemoryBroker;
import io.kaas.adapter.wire.support.ServedVersionsTest;
import org.apache.kafka.common.message.InitProducerIdRequestData;
import org.apache.kafka.common.message.InitProducerIdResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.InitProducerIdRequest;
import org.apache.kafka.common.requests.InitProducerIdResponse;

/** InitProducerId at every served version: idempotent producers get ids, transactional ones wait. */
class InitProducerIdHandlerTest extends HandlerTestBase {
    /** This broker's slice of the producer-id space starts at (broker id + 1) * 2^40. */
    private static final long FIRST_ID = (InMemoryBroker.BROKER_ID + 1L) << 40;

    @ServedVersionsTest(ApiKeys.INIT_PRODUCER_ID)
    void idempotentProducersGetFreshIdsAtEpochZero(short version) {
        InitProducerIdResponseData first = wire.<InitProducerIdResponse>roundTrip(request(version, null)).data();
        InitProducerIdResponseData second = wire.<InitProducerIdResponse>roundTrip(request(version, null)).data();

        assertThat(first.errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(first.producerId()).isEqualTo(FIRST_ID);
        assertThat(first.producerEpoch()).isZero();
        assertThat(first.throttleTimeMs()).isZero();
        assertThat(second.errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(second.producerId()).isEqualTo(FIRST_ID + 1);
        assertThat(second.producerEpoch()).isZero();
    }

    @ServedVersionsTest(ApiKeys.INIT_PRODUCER_ID)
    void aTransactionalIdHasNoCoordinatorYet(short version) {
        InitProducerIdResponseData data = wire.<InitProducerIdResponse>roundTrip(request(version, "tx-1")).data();

        assertThat(data.errorCode()).isEqualTo(Errors.COORDINATOR_NOT_AVAILABLE.code());
        assertThat(data.producerId()).isEqualTo(-1L);
        assertThat(data.producerEpoch()).isEqualTo((short) -1);
    }

    private static InitProducerIdRequest request(short version, String transactionalId) {
        return new InitProducerIdRequest.Builder(new InitProducerIdRequestData()
                .setTransactionalId(transactionalId).setTransactionTimeoutMs(60_000)).build(version);
    }
}
