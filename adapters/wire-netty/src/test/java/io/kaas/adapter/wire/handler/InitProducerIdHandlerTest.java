package io.kaas.adapter.wire.handler;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.adapter.wire.support.InMemoryBroker;
import io.kaas.adapter.wire.support.NettyLeakDetection;
import io.kaas.adapter.wire.support.ServedVersionsTest;
import io.kaas.adapter.wire.support.TxnDriver;
import io.kaas.adapter.wire.support.WireChannel;
import org.apache.kafka.common.message.InitProducerIdRequestData;
import org.apache.kafka.common.message.InitProducerIdResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.InitProducerIdRequest;
import org.apache.kafka.common.requests.InitProducerIdResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;

/** InitProducerId at every served version: idempotent ids, transactional epochs, KIP-360 fencing. */
@ExtendWith(NettyLeakDetection.class)
class InitProducerIdHandlerTest {
    /** This broker's slice of the producer-id space starts at (broker id + 1) * 2^40. */
    private static final long FIRST_ID = (InMemoryBroker.BROKER_ID + 1L) << 40;

    private final InMemoryBroker broker = new InMemoryBroker();
    private WireChannel wire;

    @BeforeEach
    void connect() {
        wire = new WireChannel(broker.registry());
    }

    @AfterEach
    void disconnect() {
        wire.close();
    }

    @ServedVersionsTest(ApiKeys.INIT_PRODUCER_ID)
    void idempotentProducersGetFreshIdsAtEpochZero(short version) {
        InitProducerIdResponseData first = init(version, null, 60_000, -1L, (short) -1);
        InitProducerIdResponseData second = init(version, null, 60_000, -1L, (short) -1);

        assertThat(first.errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(first.producerId()).isEqualTo(FIRST_ID);
        assertThat(first.producerEpoch()).isZero();
        assertThat(first.throttleTimeMs()).isZero();
        assertThat(second.errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(second.producerId()).isEqualTo(FIRST_ID + 1);
        assertThat(second.producerEpoch()).isZero();
    }

    @ServedVersionsTest(ApiKeys.INIT_PRODUCER_ID)
    void aTransactionalIdKeepsItsProducerIdAndEachInitBumpsTheEpoch(short version) {
        InitProducerIdResponseData first = init(version, "tx-1", 60_000, -1L, (short) -1);
        InitProducerIdResponseData second = init(version, "tx-1", 60_000, -1L, (short) -1);
        InitProducerIdResponseData other = init(version, "tx-2", 60_000, -1L, (short) -1);

        assertThat(first.errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(first.producerId()).isEqualTo(FIRST_ID);
        assertThat(first.producerEpoch()).isZero();
        assertThat(second.producerId()).isEqualTo(FIRST_ID);
        assertThat(second.producerEpoch()).isEqualTo((short) 1);
        assertThat(other.producerId()).isEqualTo(FIRST_ID + 1);
        assertThat(other.producerEpoch()).isZero();
    }

    @ServedVersionsTest(ApiKeys.INIT_PRODUCER_ID)
    void anEmptyIdAndATimeoutAboveTheMaximumAreRefused(short version) {
        assertThat(init(version, "", 60_000, -1L, (short) -1).errorCode()).isEqualTo(Errors.INVALID_REQUEST.code());
        InitProducerIdResponseData tooLong = init(version, "tx-1", 900_001, -1L, (short) -1);
        assertThat(tooLong.errorCode()).isEqualTo(Errors.INVALID_TRANSACTION_TIMEOUT.code());
        assertThat(tooLong.producerId()).isEqualTo(-1L);
        assertThat(init(version, "tx-1", 0, -1L, (short) -1).errorCode())
                .isEqualTo(Errors.INVALID_TRANSACTION_TIMEOUT.code());
    }

    @ServedVersionsTest(ApiKeys.INIT_PRODUCER_ID)
    void aRejoinDuringATransactionAbortsItFirst(short version) {
        broker.createTopic("out", 1);
        TxnDriver producer = new TxnDriver(wire, "tx-1").init();
        producer.addPartitions("out", 0);

        InitProducerIdResponseData rejoin = init(version, "tx-1", 60_000, -1L, (short) -1);
        InitProducerIdResponseData retry = init(version, "tx-1", 60_000, -1L, (short) -1);

        assertThat(rejoin.errorCode()).isEqualTo(Errors.CONCURRENT_TRANSACTIONS.code());
        assertThat(retry.errorCode()).as("the abort completed inline").isEqualTo(Errors.NONE.code());
        assertThat(retry.producerEpoch()).as("one bump to fence, one for the new session").isEqualTo((short) 2);
    }

    @ServedVersionsTest(value = ApiKeys.INIT_PRODUCER_ID, from = 3)
    void aCallerNamingAStaleEpochIsFenced(short version) {
        InitProducerIdResponseData first = init(version, "tx-1", 60_000, -1L, (short) -1);
        init(version, "tx-1", 60_000, -1L, (short) -1); // another instance took over (epoch 1)
        init(version, "tx-1", 60_000, -1L, (short) -1); // and again (epoch 2)

        InitProducerIdResponseData zombie = init(version, "tx-1", 60_000, first.producerId(), (short) 0);

        // PRODUCER_FENCED is a v4 code; v3 callers get INVALID_PRODUCER_EPOCH, as from Apache.
        assertThat(zombie.errorCode()).isEqualTo(version >= 4 ? Errors.PRODUCER_FENCED.code()
                : Errors.INVALID_PRODUCER_EPOCH.code());
        InitProducerIdResponseData current = init(version, "tx-1", 60_000, first.producerId(), (short) 2);
        assertThat(current.errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(current.producerEpoch()).isEqualTo((short) 3);
    }

    @ServedVersionsTest(value = ApiKeys.INIT_PRODUCER_ID, from = 3)
    void namingOnlyAProducerIdOrOnlyAnEpochIsInvalid(short version) {
        assertThat(init(version, "tx-1", 60_000, 5L, (short) -1).errorCode()).isEqualTo(Errors.INVALID_REQUEST.code());
        assertThat(init(version, null, 60_000, -1L, (short) 3).errorCode()).isEqualTo(Errors.INVALID_REQUEST.code());
    }

    private InitProducerIdResponseData init(short version, String transactionalId, int timeoutMs, long producerId,
                                            short epoch) {
        InitProducerIdRequest request = new InitProducerIdRequest.Builder(new InitProducerIdRequestData()
                .setTransactionalId(null).setTransactionTimeoutMs(1).setProducerId(producerId)
                .setProducerEpoch(epoch)).build(version);
        // the builder refuses "" and timeouts below 1, which a client could still send
        request.data().setTransactionalId(transactionalId).setTransactionTimeoutMs(timeoutMs);
        return wire.<InitProducerIdResponse>roundTrip(request).data();
    }
}
