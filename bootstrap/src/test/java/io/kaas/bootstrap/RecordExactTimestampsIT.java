package io.kaas.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.kaas.bootstrap.TimestampLookupScenario.Batch;
import io.kaas.bootstrap.TimestampLookupScenario.Stamped;
import io.kaas.bootstrap.testing.EmbeddedKaas;
import io.kaas.bootstrap.testing.KaasBrokerExtension;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.record.CompressionType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * ListOffsets by timestamp is exact to the record, as Apache Kafka 3.7's is, over batches a batching
 * producer wrote with every codec and over a LogAppendTime topic. With
 * {@code -Dkaas.peer.bootstrap=HOST:PORT} naming an Apache Kafka 3.7 broker (started with
 * {@code peer-kafka.sh}), the same scenario runs there too: the expectations are Apache's rule.
 */
class RecordExactTimestampsIT {
    private static final List<CompressionType> CODECS = List.of(CompressionType.NONE, CompressionType.GZIP,
            CompressionType.SNAPPY, CompressionType.LZ4, CompressionType.ZSTD);

    @RegisterExtension
    static final KaasBrokerExtension KAAS = KaasBrokerExtension.create();

    @Test
    void everyCodecAnswersTheFirstRecordAtOrAfterTheTimestamp() throws Exception {
        run(KAAS.kaas().bootstrapServers());
    }

    @Test
    void theMemoryLogAnswersTheSame() throws Exception {
        try (EmbeddedKaas memory = EmbeddedKaas.inTempDir(Map.of("KAAS_STORAGE", "memory")).start()) {
            run(memory.bootstrapServers());
        }
    }

    @Test
    void apacheKafkaAnswersTheSame() throws Exception {
        String peer = System.getProperty("kaas.peer.bootstrap", "");
        assumeTrue(!peer.isEmpty(), "no Apache Kafka peer named with -Dkaas.peer.bootstrap");
        run(peer);
    }

    private static void run(String servers) throws Exception {
        try (TimestampLookupScenario scenario = new TimestampLookupScenario(servers)) {
            for (CompressionType codec : CODECS) {
                fillAndCheck(scenario, "exact-" + codec.name, codec, Map.of());
            }
            // small segments: about one batch each, so the time index and segment choice matter
            fillAndCheck(scenario, "exact-segmented", CompressionType.ZSTD,
                    Map.of("segment.bytes", "4000", "index.interval.bytes", "500"));
            // LogAppendTime: every record carries its batch's timestamp, the broker's clock at the append
            String stamped = EmbeddedKaas.uniqueTopicName("exact-append-time");
            int count = scenario.fill(stamped, CompressionType.LZ4, Map.of("message.timestamp.type", "LogAppendTime"))
                    .size();
            List<Stamped> read = scenario.readBack(stamped, count);
            List<Batch> batches = scenario.batches(stamped);
            assertThat(read).allSatisfy(r -> assertThat(r.timestamp()).isEqualTo(batches.stream()
                    .filter(b -> b.lastOffset() >= r.offset()).findFirst().orElseThrow().maxTimestamp()));
            scenario.check(stamped, read, batches, TimestampLookupScenario.targetsAround(read, batches));
            scenario.assertAllAgreed();
        }
    }

    private static void fillAndCheck(TimestampLookupScenario scenario, String prefix, CompressionType codec,
                                     Map<String, String> topicConfigs) throws Exception {
        String topic = EmbeddedKaas.uniqueTopicName(prefix);
        List<Stamped> produced = scenario.fill(topic, codec, topicConfigs);
        assertThat(produced).hasSize(TimestampLookupScenario.BURSTS * TimestampLookupScenario.PER_BURST);
        List<Batch> batches = scenario.batches(topic);
        assertThat(batches).as("a batching producer wrote batches of many records")
                .hasSizeLessThan(produced.size() / 10);
        scenario.check(topic, produced, batches, TimestampLookupScenario.targetsAround(produced, batches));
    }
}
