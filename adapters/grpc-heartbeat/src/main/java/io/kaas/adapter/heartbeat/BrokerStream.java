package io.kaas.adapter.heartbeat;

import io.grpc.stub.StreamObserver;
import io.kaas.adapter.heartbeat.v1.Ack;
import io.kaas.adapter.heartbeat.v1.BrokerBeat;
import io.kaas.adapter.heartbeat.v1.ControllerMessage;
import io.kaas.application.port.out.HeartbeatTransport.Beat;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The controller's side of one broker's stream: passes each beat on, acks it, and sends pushes.
 * Acks (gRPC's threads) and pushes (the controller's thread) share the response stream, which is not
 * thread-safe, so sends are serialized here.
 */
final class BrokerStream implements StreamObserver<BrokerBeat> {
    private static final Logger LOG = LoggerFactory.getLogger(BrokerStream.class);
    private static final int UNKNOWN_BROKER = -1;

    private final StreamObserver<ControllerMessage> responses;
    private final Consumer<Beat> beats;
    private final Consumer<BrokerStream> ended;
    /** Learnt from the first beat; for logs only. */
    private volatile int brokerId = UNKNOWN_BROKER;
    private boolean finished;

    /** @param ended told once when the stream ends, whichever side ends it */
    BrokerStream(StreamObserver<ControllerMessage> responses, Consumer<Beat> beats, Consumer<BrokerStream> ended) {
        this.responses = responses;
        this.beats = beats;
        this.ended = ended;
    }

    @Override
    public void onNext(BrokerBeat beat) {
        if (brokerId == UNKNOWN_BROKER) {
            brokerId = beat.getBrokerId();
            LOG.info("Broker {} connected its heartbeat stream", brokerId);
        }
        try {
            beats.accept(new Beat(beat.getBrokerId(), beat.getHealthy(), beat.getDraining()));
        } catch (RuntimeException e) {
            // The beat did arrive; the controller's own failure must not cut the broker off.
            LOG.warn("Heartbeat consumer failed on a beat of broker {}", beat.getBrokerId(), e);
        }
        send(ControllerMessage.newBuilder().setAck(Ack.newBuilder().setSequence(beat.getSequence())).build());
    }

    @Override
    public void onError(Throwable cause) {
        if (end(false)) {
            LOG.info("Heartbeat stream of {} lost: {}", who(), StatusLine.of(cause));
        }
    }

    @Override
    public void onCompleted() {
        if (end(true)) {
            LOG.info("Heartbeat stream of {} closed by the broker", who());
        }
    }

    /** gRPC closed the call: after the controller ended it, or after a message it could not read or handle. */
    void closedByGrpc() {
        if (end(false)) {
            LOG.warn("Heartbeat stream of {} closed by gRPC: a message it could not read or handle", who());
        }
    }

    /**
     * Sends {@code message} unless the stream has ended. gRPC buffers it, so a slow broker does not
     * hold up the caller.
     *
     * @return false if the stream has ended or the send failed (the stream is then ended)
     */
    boolean send(ControllerMessage message) {
        RuntimeException failure;
        synchronized (this) {
            if (finished) {
                return false;
            }
            try {
                responses.onNext(message);
                return true;
            } catch (RuntimeException e) {
                failure = e; // cancelled by the broker before gRPC told us
            }
        }
        if (end(false)) {
            LOG.warn("Dropped the heartbeat stream of {}: {}", who(), StatusLine.of(failure));
        }
        return false;
    }

    /** Ends the stream from the controller's side; the broker reconnects when it sees the end. */
    void complete() {
        if (end(true)) {
            LOG.debug("Ended the heartbeat stream of {}", who());
        }
    }

    /** @return false if the stream had already ended */
    private boolean end(boolean completeResponses) {
        synchronized (this) {
            if (finished) {
                return false;
            }
            finished = true;
            if (completeResponses) {
                try {
                    responses.onCompleted();
                } catch (RuntimeException e) {
                    LOG.debug("Heartbeat stream of {} was already gone: {}", who(), StatusLine.of(e));
                }
            }
        }
        ended.accept(this);
        return true;
    }

    private String who() {
        int id = brokerId;
        return id == UNKNOWN_BROKER ? "a broker that sent no beat" : "broker " + id;
    }
}
