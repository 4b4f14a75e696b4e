package io.kaas.adapter.heartbeat;

import io.grpc.ManagedChannel;
import io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import io.kaas.adapter.heartbeat.v1.AssignmentChanged;
import io.kaas.adapter.heartbeat.v1.BrokerBeat;
import io.kaas.adapter.heartbeat.v1.ControllerMessage;
import io.kaas.adapter.heartbeat.v1.HeartbeatsGrpc;
import io.kaas.application.port.out.HeartbeatTransport;
import io.netty.channel.ChannelOption;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A broker's end: one stream to the controller, a beat on it every interval, pushes passed on, and
 * after the stream ends for any reason a new one after a {@link ReconnectBackoff backoff}, until
 * closed. The stream has no deadline (it lives as long as the controller); HTTP/2 keepalive pings
 * notice a connection that died without a FIN, and {@link #acknowledgedWithin} tells the broker how
 * fresh its contact with the controller is.
 *
 * <p>Each attempt gets a channel of its own, closed when its stream ends: a gRPC channel paces its
 * reconnects with a backoff of its own (from 1 s up to 2 min) and fails new calls at once while it
 * waits, which would override ours; a new channel also resolves the controller's name afresh.
 */
final class HeartbeatClient implements HeartbeatTransport.Client {
    private static final Logger LOG = LoggerFactory.getLogger(HeartbeatClient.class);
    private static final Duration BACKOFF_INITIAL = Duration.ofMillis(200);
    private static final Duration BACKOFF_CAP = Duration.ofSeconds(2);
    /** A controller address that swallows SYNs fails an attempt after this, not the OS's minutes. */
    private static final int CONNECT_TIMEOUT_MS = 3_000;
    private static final Duration CLOSE_GRACE = Duration.ofSeconds(1);

    private final String host;
    private final int port;
    private final String target;
    private final BeatSource source;
    private final Runnable assignmentChanged;
    private final TransportThreads threads;
    private final ScheduledExecutorService scheduler;
    private final LastAck lastAck = new LastAck(System::nanoTime);

    // Guarded by this.
    private final ReconnectBackoff backoff = new ReconnectBackoff(BACKOFF_INITIAL, BACKOFF_CAP);
    private ControllerStream current;
    private ScheduledFuture<?> beating;
    private ScheduledFuture<?> reconnecting;
    private int failedAttempts;
    private boolean closed;

    private HeartbeatClient(String host, int port, BeatSource source, Runnable assignmentChanged, TransportThreads threads) {
        this.host = host;
        this.port = port;
        this.target = host + ":" + port;
        this.source = source;
        this.assignmentChanged = assignmentChanged;
        this.threads = threads;
        this.scheduler = threads.scheduler();
    }

    /** Opens the stream (or keeps trying to) and starts beating every {@code beatInterval}. */
    static HeartbeatClient start(String host, int port, BeatSource source, Runnable assignmentChanged,
                                 Duration beatInterval, TransportThreads threads) {
        HeartbeatClient client = new HeartbeatClient(host, port, source, assignmentChanged, threads);
        synchronized (client) {
            client.openStream();
            long intervalMs = beatInterval.toMillis();
            client.beating = client.scheduler.scheduleAtFixedRate(client::beat, intervalMs, intervalMs, TimeUnit.MILLISECONDS);
        }
        return client;
    }

    @Override
    public boolean acknowledgedWithin(long withinMs) {
        return lastAck.within(withinMs);
    }

    synchronized boolean isClosed() {
        return closed;
    }

    /** Ends the stream (the controller sees a clean end) and stops beating and reconnecting. */
    @Override
    public void close() {
        ControllerStream last;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            beating.cancel(false);
            if (reconnecting != null) {
                reconnecting.cancel(false);
            }
            last = current;
            current = null;
        }
        boolean clean = last == null || last.close();
        LOG.info("Heartbeat client of broker {} to {} closed{}", source.brokerId(), target, clean ? "" : ", not terminated in time");
    }

    private synchronized void openStream() {
        if (closed) {
            return;
        }
        current = new ControllerStream(newChannel());
        current.start();
        scheduler.execute(this::beat); // the controller hears of us now, not an interval later
    }

    private ManagedChannel newChannel() {
        return NettyChannelBuilder.forAddress(host, port)
                .channelType(NioSocketChannel.class)
                .eventLoopGroup(threads.io())
                .executor(scheduler)
                .offloadExecutor(scheduler)
                .usePlaintext()
                .withOption(ChannelOption.CONNECT_TIMEOUT_MILLIS, CONNECT_TIMEOUT_MS)
                .keepAliveTime(GrpcHeartbeatTransport.KEEPALIVE_TIME.toMillis(), TimeUnit.MILLISECONDS)
                .keepAliveTimeout(GrpcHeartbeatTransport.KEEPALIVE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                .maxInboundMessageSize(GrpcHeartbeatTransport.MAX_MESSAGE_BYTES)
                .build();
    }

    private void beat() {
        try {
            BrokerBeat beat = source.next();
            synchronized (this) {
                if (current != null) {
                    current.send(beat);
                }
            }
        } catch (RuntimeException e) {
            // Caught so the fixed-rate task keeps running: a throwing supplier costs one beat, not all.
            LOG.warn("Heartbeat of broker {} to {} not sent", source.brokerId(), target, e);
        }
    }

    private void received(ControllerStream stream, ControllerMessage message) {
        switch (message.getKindCase()) {
            case ACK -> acknowledged(stream);
            case ASSIGNMENT_CHANGED -> assignmentChanged(message.getAssignmentChanged());
            default -> LOG.debug("Ignoring a heartbeat message of a kind this broker does not know: {}", message);
        }
    }

    private void acknowledged(ControllerStream stream) {
        lastAck.record();
        synchronized (this) {
            if (stream != current || stream.acknowledged) {
                return;
            }
            stream.acknowledged = true;
            failedAttempts = 0;
            backoff.reset();
        }
        LOG.info("Heartbeat stream of broker {} to {} connected", source.brokerId(), target);
    }

    private void assignmentChanged(AssignmentChanged push) {
        LOG.debug("ASSIGNMENT_CHANGED from {} (controller epoch {}, assignment version {})", target,
                push.getControllerEpoch(), push.getAssignmentVersion());
        try {
            assignmentChanged.run();
        } catch (RuntimeException e) {
            // The stream stays: the broker's own failure is no reason to lose the controller.
            LOG.warn("ASSIGNMENT_CHANGED callback of broker {} failed", source.brokerId(), e);
        }
    }

    private synchronized void ended(ControllerStream stream, String why) {
        if (stream != current || closed) {
            return;
        }
        current = null;
        stream.abandon();
        long delayMs = backoff.nextDelayMs();
        if (failedAttempts++ == 0) {
            LOG.info("Heartbeat stream of broker {} to {} ended ({}); reconnecting in {} ms", source.brokerId(), target,
                    why, delayMs);
        } else {
            LOG.debug("Heartbeat reconnect attempt {} of broker {} to {} failed ({}); next in {} ms", failedAttempts - 1,
                    source.brokerId(), target, why, delayMs);
        }
        reconnecting = scheduler.schedule(this::openStream, delayMs, TimeUnit.MILLISECONDS);
    }

    /** One attempt: its channel and its stream, whose callbacks run on the scheduler one at a time. */
    private final class ControllerStream implements ClientResponseObserver<BrokerBeat, ControllerMessage> {
        private final ManagedChannel channel;
        private ClientCallStreamObserver<BrokerBeat> requests;
        /** Guarded by the client: the first ack has been seen. */
        private boolean acknowledged;

        ControllerStream(ManagedChannel channel) {
            this.channel = channel;
        }

        void start() {
            HeartbeatsGrpc.newStub(channel).stream(this);
        }

        @Override
        public void beforeStart(ClientCallStreamObserver<BrokerBeat> requests) {
            this.requests = requests;
        }

        void send(BrokerBeat beat) {
            requests.onNext(beat);
        }

        /** The stream has ended: release the channel, without waiting. */
        void abandon() {
            channel.shutdownNow();
        }

        /**
         * Ends the stream cleanly (the controller sees the broker leave, not a failure) and stops the channel.
         *
         * @return whether the channel terminated in time
         */
        boolean close() {
            requests.onCompleted();
            return BoundedShutdown.stop(channel::shutdown, channel::shutdownNow, channel::awaitTermination, CLOSE_GRACE);
        }

        @Override
        public void onNext(ControllerMessage message) {
            received(this, message);
        }

        @Override
        public void onError(Throwable cause) {
            ended(this, StatusLine.of(cause));
        }

        @Override
        public void onCompleted() {
            ended(this, "completed by the controller");
        }
    }
}
