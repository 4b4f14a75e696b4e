package io.kaas.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.bootstrap.testing.EmbeddedKaas;
import io.kaas.bootstrap.testing.KaasBrokerExtension;
import io.kaas.bootstrap.testing.RawKafkaConnection;
import java.io.UncheckedIOException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.message.ApiMessageType;
import org.apache.kafka.common.message.ApiVersionsResponseData.ApiVersion;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.requests.ApiVersionsRequest;
import org.apache.kafka.common.requests.ApiVersionsResponse;
import org.apache.kafka.common.requests.RequestHeader;
import org.apache.kafka.common.requests.RequestUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Every served API at every served version, with its default body and with seeded mutations of it
 * (bytes flipped, the body cut short or run on, a field overwritten with -1 or 2^31-1): each request
 * is answered or its connection closed, never left hanging, and afterwards the broker serves real
 * clients; the extension fails the test on any Netty buffer leak. A failure names its seed.
 */
class RequestFuzzIT {
    private static final long SEED = 0x6b616173_66757a7aL;
    private static final int MUTATIONS_PER_VERSION = 15;
    private static final int PROBE_CORRELATION_ID = 0x70726f62;
    private static final Duration ANSWER_WAIT = Duration.ofSeconds(5);
    /** APIs that may park a request for as long as the (mutated) request asks, as Apache's do. */
    private static final Set<ApiKeys> MAY_PARK = Set.of(ApiKeys.FETCH, ApiKeys.JOIN_GROUP, ApiKeys.SYNC_GROUP);

    @RegisterExtension
    static final KaasBrokerExtension KAAS = KaasBrokerExtension.create()
            .withEnv(Map.of("KAAS_STORAGE", "memory", "KAAS_MAX_PARTITIONS_PER_TOPIC", "20"));

    private enum Outcome { ANSWERED, CLOSED, PARKED }

    @Test
    void everyApiSurvivesDefaultAndMutatedBodies(EmbeddedKaas kaas) throws Exception {
        Random random = new Random(SEED);
        List<ApiVersion> served;
        try (RawKafkaConnection raw = RawKafkaConnection.connect(kaas)) {
            ApiVersionsResponse versions = raw.send(new ApiVersionsRequest.Builder().build((short) 3));
            served = new ArrayList<>(versions.data().apiKeys());
        }
        int cases = 0;
        int[] outcomes = new int[Outcome.values().length];
        for (ApiVersion api : served) {
            ApiKeys key = ApiKeys.forId(api.apiKey());
            for (short version = api.minVersion(); version <= api.maxVersion(); version++) {
                for (int mutation = 0; mutation <= MUTATIONS_PER_VERSION; mutation++) {
                    long caseSeed = random.nextLong();
                    byte[] frame = frame(key, version, mutation, new Random(caseSeed));
                    String what = key + " v" + version + " mutation " + mutation + " (case seed " + caseSeed + ")";
                    Outcome outcome = sendAndProbe(kaas, frame, what);
                    assertThat(outcome != Outcome.PARKED || MAY_PARK.contains(key))
                            .as("%s: neither answered nor closed within %s", what, ANSWER_WAIT).isTrue();
                    outcomes[outcome.ordinal()]++;
                    cases++;
                }
            }
        }
        System.out.printf("request fuzz: %d cases, %d answered, %d closed, %d parked%n", cases,
                outcomes[Outcome.ANSWERED.ordinal()], outcomes[Outcome.CLOSED.ordinal()],
                outcomes[Outcome.PARKED.ordinal()]);
        assertThat(outcomes[Outcome.ANSWERED.ordinal()]).as("most default bodies are answered").isGreaterThan(served.size());
        stillServesRealClients(kaas);
    }

    /** A request frame: its header, then the default body of {@code key} at {@code version}, mutated. */
    private static byte[] frame(ApiKeys key, short version, int mutation, Random random) {
        ApiMessage body = ApiMessageType.fromApiKey(key.id).newRequest();
        RequestHeader header = new RequestHeader(key, version, "fuzz", 1);
        int headerSize = header.size();
        ByteBuffer whole = RequestUtils.serialize(header.data(), header.headerVersion(), body, version);
        byte[] bytes = new byte[whole.remaining()];
        whole.get(bytes);
        byte[] mutated = mutate(bytes, headerSize, mutation, random);
        return ByteBuffer.allocate(4 + mutated.length).putInt(mutated.length).put(mutated).array();
    }

    /** Mutation 0 keeps the default body; the others damage the body (never the header), in five ways in turn. */
    private static byte[] mutate(byte[] request, int headerSize, int mutation, Random random) {
        int bodySize = request.length - headerSize;
        int kind = mutation == 0 ? 0 : 1 + (mutation - 1) % 5;
        if (kind == 0 || bodySize == 0 && kind != 3) {
            return request;
        }
        byte[] out = request.clone();
        switch (kind) {
            case 1 -> {
                for (int i = 0; i < 3; i++) {
                    out[headerSize + random.nextInt(bodySize)] ^= (byte) (1 + random.nextInt(255));
                }
            }
            case 2 -> out = Arrays.copyOf(request, headerSize + random.nextInt(bodySize));
            case 3 -> {
                out = Arrays.copyOf(request, request.length + 1 + random.nextInt(16));
                for (int i = request.length; i < out.length; i++) {
                    out[i] = (byte) random.nextInt(256);
                }
            }
            default -> {
                int at = headerSize + random.nextInt(Math.max(1, bodySize - 3));
                int value = kind == 4 ? -1 : Integer.MAX_VALUE;
                for (int i = 0; i < 4 && at + i < out.length; i++) {
                    out[at + i] = (byte) (value >>> (24 - 8 * i));
                }
            }
        }
        return out;
    }

    /**
     * Sends the frame and then an ApiVersions probe on the same connection: the probe's answer means
     * the fuzzed request was dealt with (answered, or dropped as acks=0 is); end of stream means the
     * connection was closed.
     */
    private static Outcome sendAndProbe(EmbeddedKaas kaas, byte[] frame, String what) {
        try (RawKafkaConnection raw = RawKafkaConnection.connect(kaas)) {
            raw.socket().setSoTimeout((int) ANSWER_WAIT.toMillis());
            try {
                raw.write(frame);
                raw.write(probe());
            } catch (UncheckedIOException e) {
                return Outcome.CLOSED; // closed while we were still writing
            }
            while (true) {
                byte[] response;
                try {
                    response = raw.readFrame();
                } catch (UncheckedIOException e) {
                    return e.getCause() instanceof SocketTimeoutException ? Outcome.PARKED : Outcome.CLOSED;
                }
                int correlationId = ByteBuffer.wrap(response).getInt();
                if (correlationId == PROBE_CORRELATION_ID) {
                    return Outcome.ANSWERED;
                }
                assertThat(correlationId).as("%s: the answer's correlation id", what).isEqualTo(1);
            }
        } catch (java.net.SocketException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] probe() {
        RequestHeader header = new RequestHeader(ApiKeys.API_VERSIONS, (short) 3, "fuzz", PROBE_CORRELATION_ID);
        ByteBuffer body = new ApiVersionsRequest.Builder().build((short) 3).serializeWithHeader(header);
        return ByteBuffer.allocate(4 + body.remaining()).putInt(body.remaining()).put(body).array();
    }

    private static void stillServesRealClients(EmbeddedKaas kaas) throws Exception {
        String topic = EmbeddedKaas.uniqueTopicName("after-fuzz");
        kaas.createTopic(topic, 1);
        try (KafkaProducer<byte[], byte[]> producer = kaas.producer()) {
            producer.send(new ProducerRecord<>(topic, "still here".getBytes(StandardCharsets.UTF_8))).get();
        }
        try (KafkaConsumer<byte[], byte[]> consumer = kaas.consumer()) {
            var read = EmbeddedKaas.readAll(consumer, List.of(new TopicPartition(topic, 0)), EmbeddedKaas.DEFAULT_TIMEOUT);
            assertThat(read.get(new TopicPartition(topic, 0))).singleElement()
                    .satisfies(r -> assertThat(new String(r.value(), StandardCharsets.UTF_8)).isEqualTo("still here"));
        }
    }
}
