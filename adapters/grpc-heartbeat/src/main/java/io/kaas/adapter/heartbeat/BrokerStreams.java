package io.kaas.adapter.heartbeat;

import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import io.kaas.adapter.heartbeat.v1.AssignmentChanged;
import io.kaas.adapter.heartbeat.v1.BrokerBeat;
import io.kaas.adapter.heartbeat.v1.ControllerMessage;
import io.kaas.adapter.heartbeat.v1.HeartbeatsGrpc;
import io.kaas.application.port.out.HeartbeatTransport.Beat;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The {@code Heartbeats} service: every open broker stream, so a push reaches all of them. Once
 * {@link #endAll() ended}, a stream that still opens (it raced the server's shutdown) is ended at once.
 */
final class BrokerStreams extends HeartbeatsGrpc.HeartbeatsImplBase {
    private final Consumer<Beat> beats;
    private final Set<BrokerStream> open = new HashSet<>();
    private boolean closed;

    BrokerStreams(Consumer<Beat> beats) {
        this.beats = beats;
    }

    @Override
    public StreamObserver<BrokerBeat> stream(StreamObserver<ControllerMessage> responses) {
        BrokerStream stream = new BrokerStream(responses, beats, this::remove);
        // After a message it cannot parse, gRPC closes the call itself and never calls the stream's onError.
        ((ServerCallStreamObserver<ControllerMessage>) responses).setOnCloseHandler(stream::closedByGrpc);
        boolean accepted;
        synchronized (this) {
            accepted = !closed && open.add(stream);
        }
        if (!accepted) {
            stream.complete();
        }
        return stream;
    }

    /**
     * Sends ASSIGNMENT_CHANGED down every open stream; a stream whose send fails is dropped and the
     * others still get it.
     *
     * @return how many streams it was sent on
     */
    int pushAssignmentChanged(long controllerEpoch, long version) {
        ControllerMessage push = ControllerMessage.newBuilder().setAssignmentChanged(AssignmentChanged.newBuilder()
                .setControllerEpoch(controllerEpoch).setAssignmentVersion(version)).build();
        int sent = 0;
        for (BrokerStream stream : snapshot()) {
            if (stream.send(push)) {
                sent++;
            }
        }
        return sent;
    }

    /**
     * Ends every stream and refuses new ones.
     *
     * @return how many streams were open
     */
    int endAll() {
        List<BrokerStream> streams;
        synchronized (this) {
            closed = true;
            streams = List.copyOf(open);
        }
        streams.forEach(BrokerStream::complete);
        return streams.size();
    }

    synchronized int size() {
        return open.size();
    }

    private synchronized List<BrokerStream> snapshot() {
        return List.copyOf(open);
    }

    private synchronized void remove(BrokerStream stream) {
        open.remove(stream);
    }
}
