package io.kaas.adapter.heartbeat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.netty.NettyChannelBuilder;
import io.kaas.adapter.heartbeat.v1.HeartbeatsGrpc;
import io.kaas.application.port.out.HeartbeatTransport.Beat;
import io.kaas.application.port.out.HeartbeatTransport.Client;
import io.kaas.application.port.out.HeartbeatTransport.Server;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A controller and brokers on 127.0.0.1, each broker with its own transport, beating every 100 ms. */
class GrpcHeartbeatTransportIT {
    private static final String LOOPBACK = "127.0.0.1";
    private static final Duration CADENCE = Duration.ofMillis(100);
    /** "Within a couple of cadences", with room for a busy two-core machine. */
    private static final Duration FEW_CADENCES = CADENCE.multipliedBy(5);
    /** Acknowledged means: an ack within the last three cadences. */
    private static final long ACK_WINDOW_MS = CADENCE.multipliedBy(3).toMillis();
    /** The first connection, or a reconnect with the backoff at its 2 s cap. */
    private static final Duration CONNECT = Duration.ofSeconds(5);

    private final Deque<AutoCloseable> opened = new ArrayDeque<>();

    @AfterEach
    void closeAll() throws Exception {
        while (!opened.isEmpty()) {
            opened.pop().close();
        }
    }

    @Test
    void beatsOfTwoBrokersArriveWithTheirBitsAndTheirChanges() {
        Received received = new Received();
        GrpcHeartbeatTransport controller = transport(0);
        controller.serve(received);
        AtomicBoolean healthy1 = new AtomicBoolean(true);
        AtomicBoolean draining2 = new AtomicBoolean(false);
        transport(0).dial(LOOPBACK, controller.port(), 1, healthy1::get, () -> false, () -> { });
        transport(0).dial(LOOPBACK, controller.port(), 2, () -> true, draining2::get, () -> { });

        await(CONNECT).untilAsserted(() -> assertThat(received.latest())
                .containsEntry(1, new Beat(1, true, false))
                .containsEntry(2, new Beat(2, true, false)));

        healthy1.set(false);
        draining2.set(true);
        await(FEW_CADENCES).untilAsserted(() -> assertThat(received.latest())
                .containsEntry(1, new Beat(1, false, false))
                .containsEntry(2, new Beat(2, true, true)));
    }

    @Test
    void aPushReachesEveryConnectedClient() {
        GrpcHeartbeatTransport controller = transport(0);
        Server server = controller.serve(beat -> { });
        AtomicInteger pushes1 = new AtomicInteger();
        AtomicInteger pushes2 = new AtomicInteger();
        Client broker1 = broker(controller.port(), 1, pushes1::incrementAndGet);
        Client broker2 = broker(controller.port(), 2, pushes2::incrementAndGet);
        awaitAcknowledged(broker1, broker2);

        server.pushAssignmentChanged(4, 9);

        await(FEW_CADENCES).until(() -> pushes1.get() == 1 && pushes2.get() == 1);
    }

    @Test
    void acknowledgementLapsesWhenTheControllerGoesAndReturnsWhenANewOneServesOnTheSamePort() {
        GrpcHeartbeatTransport first = transport(0);
        Server firstServer = first.serve(beat -> { });
        int port = first.port();
        Client broker = broker(port, 1, () -> { });
        awaitAcknowledged(broker);

        long closing = System.nanoTime();
        firstServer.close();
        assertThat(Duration.ofNanos(System.nanoTime() - closing)).as("closing with a stream open").isLessThan(Duration.ofSeconds(3));
        await(FEW_CADENCES).until(() -> !broker.acknowledgedWithin(ACK_WINDOW_MS));

        Received received = new Received();
        transport(port).serve(received);
        awaitAcknowledged(broker);
        assertThat(received.latest()).containsKey(1);
    }

    @Test
    void aClientDialedBeforeTheServerStartsConnectsWhenItStarts() {
        int port = freePort();
        Client broker = broker(port, 1, () -> { });
        // Its first attempts find nothing listening.
        await(FEW_CADENCES).during(CADENCE.multipliedBy(3)).until(() -> !broker.acknowledgedWithin(60_000));

        Received received = new Received();
        transport(port).serve(received);

        awaitAcknowledged(broker);
        assertThat(received.latest()).containsKey(1);
    }

    @Test
    void aTransportServesAgainAfterItsServerClosed() {
        int port = freePort();
        GrpcHeartbeatTransport controller = transport(port);
        controller.serve(beat -> { }).close();
        assertThatThrownBy(controller::port).isInstanceOf(IllegalStateException.class);

        Received received = new Received();
        // The closed server's socket may linger a moment on a loaded machine: serving again may take a retry.
        Awaitility.await().atMost(Duration.ofSeconds(10)).ignoreException(UncheckedIOException.class)
                .until(() -> controller.serve(received) != null);
        assertThatThrownBy(() -> controller.serve(beat -> { })).isInstanceOf(IllegalStateException.class);

        awaitAcknowledged(broker(port, 1, () -> { }));
        assertThat(received.latest()).containsKey(1);
    }

    @Test
    void closingAClientStopsItsBeats() {
        Received received = new Received();
        GrpcHeartbeatTransport controller = transport(0);
        HeartbeatServer server = (HeartbeatServer) controller.serve(received);
        Client closing = broker(controller.port(), 1, () -> { });
        Client staying = broker(controller.port(), 2, () -> { });
        awaitAcknowledged(closing, staying);

        closing.close();
        await(FEW_CADENCES).until(() -> server.openStreams() == 1);
        long beatsOf1 = received.count(1);
        long beatsOf2 = received.count(2);

        await(CADENCE.multipliedBy(6)).during(CADENCE.multipliedBy(4)).until(() -> received.count(1) == beatsOf1);
        assertThat(received.count(2)).as("the other broker still beats").isGreaterThan(beatsOf2);
    }

    @Test
    void aClientWhoseCallbackThrowsBreaksNeitherItsStreamNorPushesToOthers() {
        GrpcHeartbeatTransport controller = transport(0);
        HeartbeatServer server = (HeartbeatServer) controller.serve(beat -> { });
        AtomicInteger thrown = new AtomicInteger();
        AtomicInteger pushes = new AtomicInteger();
        Client throwing = broker(controller.port(), 1, () -> {
            thrown.incrementAndGet();
            throw new IllegalStateException("a broker bug");
        });
        Client other = broker(controller.port(), 2, pushes::incrementAndGet);
        awaitAcknowledged(throwing, other);

        server.pushAssignmentChanged(1, 1);
        server.pushAssignmentChanged(1, 2);

        await(FEW_CADENCES).until(() -> pushes.get() == 2 && thrown.get() == 2);
        assertThat(server.openStreams()).isEqualTo(2);
        assertThat(throwing.acknowledgedWithin(ACK_WINDOW_MS)).isTrue();
    }

    @Test
    void malformedAndOversizedMessagesEndOnlyTheirOwnStream() throws Exception {
        Received received = new Received();
        GrpcHeartbeatTransport controller = transport(0);
        HeartbeatServer server = (HeartbeatServer) controller.serve(received);
        Client broker = broker(controller.port(), 1, () -> { });
        awaitAcknowledged(broker);
        ManagedChannel raw = NettyChannelBuilder.forAddress(LOOPBACK, controller.port()).usePlaintext().build();
        opened.push(() -> raw.shutdownNow().awaitTermination(1, TimeUnit.SECONDS));

        assertThat(sendRaw(raw, new byte[] {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF}).isOk()).as("truncated protobuf").isFalse();
        assertThat(sendRaw(raw, new byte[64 * 1024]).isOk()).as("oversized message").isFalse();

        await(FEW_CADENCES).until(() -> server.openStreams() == 1);
        long beats = received.count(1);
        await(FEW_CADENCES).until(() -> received.count(1) > beats && broker.acknowledgedWithin(ACK_WINDOW_MS));
        awaitAcknowledged(broker(controller.port(), 2, () -> { }));
    }

    @Test
    void theTransportsThreadsAreNamedDaemonsAndEndWithIt() {
        GrpcHeartbeatTransport controller = new GrpcHeartbeatTransport(LOOPBACK, 0, CADENCE);
        GrpcHeartbeatTransport broker = new GrpcHeartbeatTransport(LOOPBACK, 0, CADENCE);
        controller.serve(beat -> { });
        awaitAcknowledged(broker.dial(LOOPBACK, controller.port(), 1, () -> true, () -> false, () -> { }));

        assertThat(heartbeatThreads()).isNotEmpty().allMatch(Thread::isDaemon);

        broker.close();
        controller.close();
        await(CONNECT).until(() -> heartbeatThreads().isEmpty());
    }

    private GrpcHeartbeatTransport transport(int port) {
        GrpcHeartbeatTransport transport = new GrpcHeartbeatTransport(LOOPBACK, port, CADENCE);
        opened.push(transport);
        return transport;
    }

    /** A broker with its own transport, healthy and not draining. */
    private Client broker(int controllerPort, int brokerId, Runnable assignmentChanged) {
        return transport(0).dial(LOOPBACK, controllerPort, brokerId, () -> true, () -> false, assignmentChanged);
    }

    private static void awaitAcknowledged(Client... clients) {
        await(CONNECT).until(() -> Arrays.stream(clients).allMatch(client -> client.acknowledgedWithin(ACK_WINDOW_MS)));
    }

    private static ConditionFactory await(Duration atMost) {
        return Awaitility.await().atMost(atMost).pollInterval(Duration.ofMillis(20));
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(LOOPBACK))) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<Thread> heartbeatThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().startsWith("kaas-heartbeat")).toList();
    }

    /** Sends {@code message} as is on the Stream method, as a broken or hostile peer would; returns how the call ended. */
    private static Status sendRaw(ManagedChannel channel, byte[] message) throws Exception {
        CompletableFuture<Status> end = new CompletableFuture<>();
        ClientCall<byte[], byte[]> call = channel.newCall(RAW_STREAM, CallOptions.DEFAULT);
        call.start(new ClientCall.Listener<>() {
            @Override
            public void onClose(Status status, Metadata trailers) {
                end.complete(status);
            }
        }, new Metadata());
        call.request(1);
        call.sendMessage(message);
        return end.get(5, TimeUnit.SECONDS);
    }

    private static final MethodDescriptor.Marshaller<byte[]> BYTES = new MethodDescriptor.Marshaller<>() {
        @Override
        public InputStream stream(byte[] value) {
            return new ByteArrayInputStream(value);
        }

        @Override
        public byte[] parse(InputStream stream) {
            try {
                return stream.readAllBytes();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    };

    private static final MethodDescriptor<byte[], byte[]> RAW_STREAM = MethodDescriptor.<byte[], byte[]>newBuilder()
            .setType(MethodDescriptor.MethodType.BIDI_STREAMING)
            .setFullMethodName(HeartbeatsGrpc.getStreamMethod().getFullMethodName())
            .setRequestMarshaller(BYTES)
            .setResponseMarshaller(BYTES)
            .build();

    /** Every beat the controller received. */
    private static final class Received implements Consumer<Beat> {
        private final List<Beat> beats = new CopyOnWriteArrayList<>();

        @Override
        public void accept(Beat beat) {
            beats.add(beat);
        }

        /** The last beat of each broker. */
        Map<Integer, Beat> latest() {
            Map<Integer, Beat> latest = new ConcurrentHashMap<>();
            beats.forEach(beat -> latest.put(beat.brokerId(), beat));
            return latest;
        }

        long count(int brokerId) {
            return beats.stream().filter(beat -> beat.brokerId() == brokerId).count();
        }
    }
}
