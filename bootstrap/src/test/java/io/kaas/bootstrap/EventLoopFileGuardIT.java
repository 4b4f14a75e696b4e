package io.kaas.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.adapter.fs.NioFilesystem;
import io.kaas.adapter.wire.KafkaServer;
import io.kaas.adapter.wire.WireSettings;
import io.kaas.adapter.wire.dispatch.ApiRegistry;
import io.kaas.adapter.wire.dispatch.ConnectionLimits;
import io.kaas.application.port.out.Filesystem;
import io.kaas.bootstrap.testing.EmbeddedKaas;
import io.kaas.bootstrap.testing.EventLoopFileGuard;
import io.kaas.bootstrap.testing.RawKafkaConnection;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.message.DescribeClusterRequestData;
import org.apache.kafka.common.message.DescribeClusterResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.requests.DescribeClusterRequest;
import org.apache.kafka.common.requests.DescribeClusterResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The threading rule's detector catches what it is for: an fsync injected into a request handler,
 * which runs on the connection's event loop, fails the guard; the broker's own produce, fetch and
 * admin paths do not (every integration test's broker runs over the guard and checks it at stop).
 */
class EventLoopFileGuardIT {
    @TempDir
    Path dir;

    @Test
    void anFsyncInjectedIntoAHandlerOnTheEventLoopIsCaught() throws Exception {
        EventLoopFileGuard guard = new EventLoopFileGuard(new NioFilesystem());
        Path file = dir.resolve("injected.bin");
        ApiRegistry registry = ApiRegistry.builder()
                .serve(ApiKeys.DESCRIBE_CLUSTER, 0, 1, (context, request) -> {
                    fsync(guard, file); // the injected bug: file work inline in a handler
                    return CompletableFuture.completedFuture(new DescribeClusterResponse(
                            new DescribeClusterResponseData().setClusterId("guarded")));
                })
                .build();
        WireSettings settings = new WireSettings("127.0.0.1", 0, WireSettings.DEFAULT_MAX_FRAME_BYTES, 1,
                WireSettings.DEFAULT_SOCKET_BUFFER_BYTES, WireSettings.DEFAULT_TLS_SEND_BUFFER_BYTES,
                WireSettings.DEFAULT_SOCKET_BUFFER_BYTES, 0L,
                ConnectionLimits.DEFAULT);
        KafkaServer server = KafkaServer.start(settings, registry, Runnable::run);
        try (RawKafkaConnection client = RawKafkaConnection.connect("127.0.0.1", server.port())) {
            DescribeClusterResponse answer = client.send(
                    new DescribeClusterRequest.Builder(new DescribeClusterRequestData()).build((short) 0));
            assertThat(answer.data().clusterId()).isEqualTo("guarded");
        } finally {
            server.close();
        }

        assertThat(guard.violations()).isNotEmpty();
        assertThatThrownBy(guard::assertNoViolations).isInstanceOf(AssertionError.class)
                .hasMessageContaining("force via EventLoopFileGuardIT.fsync")
                .hasMessageContaining("file call(s) on a Netty event loop");
    }

    @Test
    void theSameFsyncOffTheEventLoopIsAllowed() throws Exception {
        EventLoopFileGuard guard = new EventLoopFileGuard(new NioFilesystem());

        fsync(guard, dir.resolve("from-a-test-thread.bin"));

        guard.assertNoViolations();
    }

    @Test
    void aBrokerServingProduceFetchAndAdminStaysOffTheFilesOnItsLoops() throws Exception {
        try (EmbeddedKaas broker = EmbeddedKaas.inTempDir(Map.of()).start()) {
            String topic = EmbeddedKaas.uniqueTopicName("guarded");
            broker.createTopic(topic, 2);
            try (var producer = broker.producer()) {
                for (int i = 0; i < 20; i++) {
                    producer.send(new ProducerRecord<>(topic, i % 2, null, ("v" + i).getBytes())).get();
                }
            }
            try (var consumer = broker.consumer()) {
                consumer.assign(List.of(new TopicPartition(topic, 0), new TopicPartition(topic, 1)));
                consumer.seekToBeginning(consumer.assignment());
                assertThat(EmbeddedKaas.consume(consumer, 20, EmbeddedKaas.DEFAULT_TIMEOUT)).hasSize(20);
            }
            broker.stopBroker(); // fails here if any file call ran on an event loop
        }
    }

    private static void fsync(Filesystem fs, Path file) {
        try (Filesystem.FileHandle handle = fs.open(file, true)) {
            handle.write(ByteBuffer.wrap(new byte[] {1, 2, 3}), 0);
            handle.force();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
