package io.kaas.adapter.heartbeat;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import io.kaas.adapter.heartbeat.v1.BrokerBeat;
import io.kaas.adapter.heartbeat.v1.ControllerMessage;
import io.kaas.application.port.out.HeartbeatTransport.Beat;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The server's streams without sockets: the observers gRPC would hand the service are fakes here. */
class BrokerStreamsTest {
    private final List<Beat> beats = new ArrayList<>();
    private final BrokerStreams streams = new BrokerStreams(beats::add);

    @Test
    void aBeatReachesTheConsumerWithItsBitsAndIsAckedWithItsSequence() {
        Responses responses = new Responses();
        streams.stream(responses).onNext(beat(3, false, true, 41));

        assertThat(beats).containsExactly(new Beat(3, false, true));
        assertThat(responses.received).extracting(m -> m.getAck().getSequence()).containsExactly(41L);
    }

    @Test
    void aPushReachesEveryOpenStream() {
        Responses first = open(1);
        Responses second = open(2);

        assertThat(streams.pushAssignmentChanged(7, 12)).isEqualTo(2);

        for (Responses responses : List.of(first, second)) {
            assertThat(responses.pushes()).singleElement().satisfies(push -> {
                assertThat(push.getAssignmentChanged().getControllerEpoch()).isEqualTo(7);
                assertThat(push.getAssignmentChanged().getAssignmentVersion()).isEqualTo(12);
            });
        }
    }

    @Test
    void aStreamWhosePushFailsIsDroppedAndTheOthersStillGetThatPushAndTheNext() {
        Responses broken = open(1);
        Responses healthy = open(2);
        broken.failing = true;

        assertThat(streams.pushAssignmentChanged(7, 12)).isEqualTo(1);
        assertThat(streams.size()).isEqualTo(1);
        assertThat(streams.pushAssignmentChanged(7, 13)).isEqualTo(1);

        assertThat(healthy.pushes()).extracting(m -> m.getAssignmentChanged().getAssignmentVersion()).containsExactly(12L, 13L);
        assertThat(broken.pushes()).isEmpty();
    }

    @Test
    void aFailingBeatConsumerStillAcksAndKeepsTheStream() {
        BrokerStreams throwing = new BrokerStreams(beat -> {
            throw new IllegalStateException("controller bug");
        });
        Responses responses = new Responses();
        throwing.stream(responses).onNext(beat(1, true, false, 1));

        assertThat(responses.received).extracting(m -> m.getAck().getSequence()).containsExactly(1L);
        assertThat(throwing.size()).isEqualTo(1);
    }

    @Test
    void aStreamTheBrokerCompletesIsCompletedBackAndLeaves() {
        Responses responses = new Responses();
        StreamObserver<BrokerBeat> stream = streams.stream(responses);

        stream.onCompleted();

        assertThat(responses.completions).isEqualTo(1);
        assertThat(streams.size()).isZero();
    }

    @Test
    void aStreamLostToAnErrorLeavesAndIsNotWrittenAgain() {
        Responses responses = new Responses();
        streams.stream(responses).onError(Status.CANCELLED.asRuntimeException());

        assertThat(streams.size()).isZero();
        assertThat(streams.pushAssignmentChanged(1, 1)).isZero();
        assertThat(streams.endAll()).isZero();
        assertThat(responses.received).isEmpty();
        assertThat(responses.completions).isZero();
    }

    @Test
    void aStreamGrpcClosesAfterAnUnreadableMessageLeavesAndIsNotWrittenAgain() {
        Responses unreadable = open(1);
        Responses healthy = open(2);

        unreadable.closeByGrpc();

        assertThat(streams.size()).isEqualTo(1);
        assertThat(streams.pushAssignmentChanged(7, 12)).isEqualTo(1);
        assertThat(unreadable.pushes()).isEmpty();
        assertThat(healthy.pushes()).hasSize(1);
    }

    @Test
    void endAllCompletesEveryStreamOnceAndEndsLaterStreamsAtOnce() {
        Responses first = open(1);
        Responses second = open(2);

        assertThat(streams.endAll()).isEqualTo(2);
        Responses late = new Responses();
        streams.stream(late);

        assertThat(List.of(first.completions, second.completions, late.completions)).containsOnly(1);
        assertThat(streams.size()).isZero();
        assertThat(streams.pushAssignmentChanged(7, 12)).isZero();
    }

    private Responses open(int brokerId) {
        Responses responses = new Responses();
        streams.stream(responses).onNext(beat(brokerId, true, false, 1));
        return responses;
    }

    private static BrokerBeat beat(int brokerId, boolean healthy, boolean draining, long sequence) {
        return BrokerBeat.newBuilder().setBrokerId(brokerId).setHealthy(healthy).setDraining(draining)
                .setSequence(sequence).build();
    }

    /**
     * A broker's response stream as the service sees it; {@code failing} makes it act like a cancelled call,
     * {@link #closeByGrpc()} like gRPC closing the call after an unreadable message.
     */
    private static final class Responses extends ServerCallStreamObserver<ControllerMessage> {
        final List<ControllerMessage> received = new ArrayList<>();
        int completions;
        boolean failing;
        private Runnable onClose = () -> { };

        List<ControllerMessage> pushes() {
            return received.stream().filter(ControllerMessage::hasAssignmentChanged).toList();
        }

        void closeByGrpc() {
            onClose.run();
        }

        @Override
        public void onNext(ControllerMessage message) {
            if (failing) {
                throw Status.CANCELLED.withDescription("call already cancelled").asRuntimeException();
            }
            received.add(message);
        }

        @Override
        public void onError(Throwable cause) {
            throw new AssertionError("the controller never fails a stream, it completes it", cause);
        }

        @Override
        public void onCompleted() {
            completions++;
            onClose.run();
        }

        @Override
        public void setOnCloseHandler(Runnable onClose) {
            this.onClose = onClose;
        }

        @Override
        public boolean isCancelled() {
            return failing;
        }

        @Override
        public boolean isReady() {
            return true;
        }

        @Override
        public void setOnCancelHandler(Runnable onCancel) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void setCompression(String compression) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void setOnReadyHandler(Runnable onReady) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void disableAutoInboundFlowControl() {
            throw new UnsupportedOperationException();
        }

        @Override
        public void request(int count) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void setMessageCompression(boolean enable) {
            throw new UnsupportedOperationException();
        }
    }
}
