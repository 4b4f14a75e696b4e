package io.kaas.adapter.heartbeat;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.Status;
import java.net.ConnectException;
import org.junit.jupiter.api.Test;

class StatusLineTest {

    @Test
    void codeDescriptionAndCauseOnOneLine() {
        Throwable error = Status.UNAVAILABLE.withDescription("io exception")
                .withCause(new ConnectException("Connection refused:\n  /127.0.0.1:9093")).asRuntimeException();

        assertThat(StatusLine.of(error)).isEqualTo("UNAVAILABLE: io exception (Connection refused: /127.0.0.1:9093)");
    }

    @Test
    void aBareCodeOrANonGrpcErrorStillSaysWhatItCan() {
        assertThat(StatusLine.of(Status.CANCELLED.asRuntimeException())).isEqualTo("CANCELLED");
        assertThat(StatusLine.of(new IllegalStateException("call already half-closed"))).isEqualTo("UNKNOWN (call already half-closed)");
    }
}
