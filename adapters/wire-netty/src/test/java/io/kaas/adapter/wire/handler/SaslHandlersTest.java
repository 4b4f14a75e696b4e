package io.kaas.adapter.wire.handler;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.adapter.wire.support.HandlerTestBase;
import io.kaas.adapter.wire.support.ServedVersionsTest;
import org.apache.kafka.common.message.SaslAuthenticateRequestData;
import org.apache.kafka.common.message.SaslHandshakeRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.SaslAuthenticateRequest;
import org.apache.kafka.common.requests.SaslAuthenticateResponse;
import org.apache.kafka.common.requests.SaslHandshakeRequest;
import org.apache.kafka.common.requests.SaslHandshakeResponse;

/**
 * SaslHandshake and SaslAuthenticate on a connection without authentication (a plaintext listener;
 * an authenticated SASL one answers the same, see SaslGateTest): ILLEGAL_SASL_STATE, as Apache's
 * KafkaApis answers, and the connection stays open.
 */
class SaslHandlersTest extends HandlerTestBase {

    @ServedVersionsTest(ApiKeys.SASL_HANDSHAKE)
    void aHandshakeIsIllegalHere(short version) {
        SaslHandshakeResponse response = wire.roundTrip(new SaslHandshakeRequest.Builder(
                new SaslHandshakeRequestData().setMechanism("SCRAM-SHA-512")).build(version));

        assertThat(response.data().errorCode()).isEqualTo(Errors.ILLEGAL_SASL_STATE.code());
        assertThat(response.data().mechanisms()).isEmpty();
        assertThat(wire.isOpen()).isTrue();
    }

    @ServedVersionsTest(ApiKeys.SASL_AUTHENTICATE)
    void anAuthenticateIsIllegalHere(short version) {
        SaslAuthenticateResponse response = wire.roundTrip(new SaslAuthenticateRequest.Builder(
                new SaslAuthenticateRequestData().setAuthBytes(new byte[] {0, 'a', 0, 'b'})).build(version));

        assertThat(response.data().errorCode()).isEqualTo(Errors.ILLEGAL_SASL_STATE.code());
        assertThat(response.data().errorMessage()).isEqualTo("SaslAuthenticate request received after successful authentication");
        assertThat(response.data().sessionLifetimeMs()).isZero();
        assertThat(wire.isOpen()).isTrue();
    }
}
