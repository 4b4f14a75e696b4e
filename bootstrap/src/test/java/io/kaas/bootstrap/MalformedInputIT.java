package io.kaas.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.bootstrap.testing.EmbeddedKaas;
import io.kaas.bootstrap.testing.KaasBrokerExtension;
import io.kaas.bootstrap.testing.RawKafkaConnection;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.message.ApiVersionsResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.ApiVersionsRequest;
import org.apache.kafka.common.requests.ApiVersionsResponse;
import org.apache.kafka.common.requests.MetadataRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Bytes no client would send, over raw sockets: the broker drops the offending connection (as
 * Apache does for a frame it cannot parse) and goes on serving everyone else.
 */
class MalformedInputIT {
    private static final Duration CLOSE_WAIT = Duration.ofSeconds(5);

    @RegisterExtension
    static final KaasBrokerExtension KAAS = KaasBrokerExtension.create();

    @AfterEach
    void brokerStillServesRealClients() throws Exception {
        EmbeddedKaas kaas = KAAS.kaas();
        String topic = EmbeddedKaas.uniqueTopicName("after-bad-input");
        try (Admin admin = Admin.create(kaas.adminConfig(Map.of()))) {
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get();
            assertThat(admin.listTopics().names().get()).contains(topic);
        }
        kaas.producer(Map.of(ProducerConfig.LINGER_MS_CONFIG, 0))
                .send(new ProducerRecord<>(topic, 0, null, "still here".getBytes(StandardCharsets.UTF_8))).get();
        KafkaConsumer<byte[], byte[]> consumer = kaas.consumer();
        consumer.assign(List.of(new TopicPartition(topic, 0)));
        List<ConsumerRecord<byte[], byte[]>> records = EmbeddedKaas.consume(consumer, 1, Duration.ofSeconds(10));
        assertThat(records).singleElement()
                .satisfies(r -> assertThat(r.value()).asString(StandardCharsets.UTF_8).isEqualTo("still here"));
        kaas.closeClients();
    }

    @Test
    void aHugeLengthPrefixClosesTheConnection() {
        try (RawKafkaConnection raw = RawKafkaConnection.connect(KAAS.kaas())) {
            raw.write(ByteBuffer.allocate(4).putInt(0x7fffffff).array());
            assertThat(raw.closedByPeer(CLOSE_WAIT)).isTrue();
        }
    }

    @Test
    void aNegativeLengthPrefixClosesTheConnection() {
        try (RawKafkaConnection raw = RawKafkaConnection.connect(KAAS.kaas())) {
            raw.write(new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0, 0, 0, 0});
            assertThat(raw.closedByPeer(CLOSE_WAIT)).isTrue();
        }
    }

    @Test
    void anEmptyFrameClosesTheConnection() {
        try (RawKafkaConnection raw = RawKafkaConnection.connect(KAAS.kaas())) {
            raw.write(new byte[] {0, 0, 0, 0});
            assertThat(raw.closedByPeer(CLOSE_WAIT)).isTrue();
        }
    }

    @Test
    void aTruncatedFrameFollowedByCloseIsDropped() {
        try (RawKafkaConnection raw = RawKafkaConnection.connect(KAAS.kaas())) {
            MetadataRequest request = new MetadataRequest.Builder(List.of("t"), false).build((short) 9);
            ByteBuffer body = request.serializeWithHeader(raw.nextHeader(request));
            byte[] partial = new byte[4 + body.remaining() / 2];
            ByteBuffer.wrap(partial).putInt(body.remaining()); // the full size, then only half the bytes
            body.get(partial, 4, partial.length - 4);
            raw.write(partial);
            raw.shutdownOutput();
            assertThat(raw.closedByPeer(CLOSE_WAIT)).as("the broker closes its side once ours is closed").isTrue();
        }
    }

    @Test
    void anUnknownApiKeyClosesTheConnection() {
        try (RawKafkaConnection raw = RawKafkaConnection.connect(KAAS.kaas())) {
            byte[] clientId = "raw-it".getBytes(StandardCharsets.US_ASCII);
            ByteBuffer frame = ByteBuffer.allocate(4 + 2 + 2 + 4 + 2 + clientId.length + 8);
            frame.putInt(frame.capacity() - 4)
                    .putShort((short) 999)            // api key
                    .putShort((short) 0)              // api version
                    .putInt(7)                        // correlation id
                    .putShort((short) clientId.length).put(clientId)
                    .putLong(0L);                     // a body nobody can parse
            raw.write(frame.array());
            assertThat(raw.closedByPeer(CLOSE_WAIT)).isTrue();
        }
    }

    @Test
    void aKnownApiAtAnUnservedVersionClosesTheConnection() {
        try (RawKafkaConnection raw = RawKafkaConnection.connect(KAAS.kaas())) {
            // Produce v2 (message format v1) is below the served range.
            byte[] clientId = "raw-it".getBytes(StandardCharsets.US_ASCII);
            ByteBuffer frame = ByteBuffer.allocate(4 + 2 + 2 + 4 + 2 + clientId.length);
            frame.putInt(frame.capacity() - 4).putShort(ApiKeys.PRODUCE.id).putShort((short) 2).putInt(8)
                    .putShort((short) clientId.length).put(clientId);
            raw.write(frame.array());
            assertThat(raw.closedByPeer(CLOSE_WAIT)).isTrue();
        }
    }

    @Test
    void anApiVersionsRequestAtAnUnknownVersionGetsTheVersionFallback() {
        try (RawKafkaConnection raw = RawKafkaConnection.connect(KAAS.kaas())) {
            // KIP-511: answered at v0 with UNSUPPORTED_VERSION and the served ranges, connection kept.
            short future = (short) (ApiKeys.API_VERSIONS.latestVersion() + 1);
            byte[] clientId = "raw-it".getBytes(StandardCharsets.US_ASCII);
            ByteBuffer frame = ByteBuffer.allocate(4 + 2 + 2 + 4 + 2 + clientId.length + 1 + 1 + 1 + 1);
            frame.putInt(frame.capacity() - 4).putShort(ApiKeys.API_VERSIONS.id).putShort(future).putInt(9)
                    .putShort((short) clientId.length).put(clientId)
                    .put((byte) 0)                    // header tagged fields
                    .put((byte) 1).put((byte) 1)      // client software name and version: empty compact strings
                    .put((byte) 0);                   // body tagged fields
            raw.write(frame.array());
            ByteBuffer response = ByteBuffer.wrap(raw.readFrame());
            assertThat(response.getInt()).as("correlation id").isEqualTo(9);
            ApiVersionsResponse parsed = ApiVersionsResponse.parse(response, (short) 0);
            assertThat(parsed.data().errorCode()).isEqualTo(Errors.UNSUPPORTED_VERSION.code());
            assertThat(parsed.data().apiKeys().find(ApiKeys.API_VERSIONS.id))
                    .extracting(ApiVersionsResponseData.ApiVersion::maxVersion)
                    .isEqualTo(ApiKeys.API_VERSIONS.latestVersion());
            assertThat(raw.closedByPeer(Duration.ofMillis(200))).as("the connection stays open").isFalse();
        }
    }

    @Test
    void randomGarbageIsSurvived() {
        Random random = new Random(0x6b616173L);
        for (int round = 0; round < 20; round++) {
            try (RawKafkaConnection raw = RawKafkaConnection.connect(KAAS.kaas())) {
                byte[] garbage = new byte[64 + random.nextInt(4096)];
                random.nextBytes(garbage);
                if (round % 2 == 0) {
                    // A plausible size, so the garbage reaches the request parser rather than the frame decoder.
                    ByteBuffer.wrap(garbage).putInt(garbage.length - 4);
                    raw.write(garbage);
                    assertThat(raw.closedByPeer(CLOSE_WAIT)).as("round %d", round).isTrue();
                } else {
                    raw.write(garbage);
                    raw.shutdownOutput();
                    assertThat(raw.closedByPeer(CLOSE_WAIT)).as("round %d", round).isTrue();
                }
            }
        }
    }

    @Test
    void aBadConnectionDoesNotDisturbAGoodOneInterleavedWithIt() {
        EmbeddedKaas kaas = KAAS.kaas();
        try (RawKafkaConnection good = RawKafkaConnection.connect(kaas);
             RawKafkaConnection bad = RawKafkaConnection.connect(kaas)) {
            ApiVersionsResponse before = good.send(new ApiVersionsRequest.Builder().build((short) 3));
            bad.write(ByteBuffer.allocate(8).putInt(0x7fffffff).putInt(0).array());
            assertThat(bad.closedByPeer(CLOSE_WAIT)).isTrue();
            ApiVersionsResponse after = good.send(new ApiVersionsRequest.Builder().build((short) 3));
            assertThat(after.data().errorCode()).isZero();
            assertThat(after.data().apiKeys()).isEqualTo(before.data().apiKeys());
        }
    }
}
