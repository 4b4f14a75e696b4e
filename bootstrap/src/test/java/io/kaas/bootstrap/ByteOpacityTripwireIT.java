package io.kaas.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.bootstrap.telemetry.PrometheusText;
import io.kaas.bootstrap.testing.EmbeddedKaas;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.record.CompressionType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dynamic tripwire of byte opacity: a broker process serving every kind of record traffic
 * (each codec, idempotent and transactional producers, control markers, LogAppendTime stamping,
 * read_committed fetches, group commits) never loads a class that decodes a record or builds a
 * batch. The JVM's own class-load log is the counter, so a decode added anywhere — not only at a
 * site someone thought to instrument — trips it; and the tripwire counters the broker exports (the
 * record ports' calls, by site) read zero. ListOffsets by timestamp and compacted topics, whose
 * features read records ({@code KafkaBatchRecordSearch}, {@code KafkaRecordKeys}, the cleaner), are left out
 * on purpose.
 */
class ByteOpacityTripwireIT {
    /** Loading any of these means records were read out of a batch. */
    static final Set<String> RECORD_DECODERS = Set.of(
            "org.apache.kafka.common.record.DefaultRecord",
            "org.apache.kafka.common.record.LegacyRecord",
            "org.apache.kafka.common.compress.KafkaLZ4BlockInputStream",
            "org.apache.kafka.common.utils.ChunkedBytesStream",
            "java.util.zip.GZIPInputStream",
            "org.xerial.snappy.SnappyInputStream",
            "com.github.luben.zstd.ZstdInputStreamNoFinalizer");
    /** Loading any of these means a batch was (re)built. */
    static final Set<String> BATCH_ENCODERS = Set.of(
            "org.apache.kafka.common.record.MemoryRecordsBuilder",
            "org.apache.kafka.common.compress.KafkaLZ4BlockOutputStream",
            "java.util.zip.GZIPOutputStream",
            "org.xerial.snappy.SnappyOutputStream",
            "com.github.luben.zstd.ZstdOutputStreamNoFinalizer");
    private static final Pattern CLASS_LOAD = Pattern.compile("\\[class,load\\s*\\] (\\S+) source:");

    @TempDir
    Path dir;

    @Test
    void aBrokerServingEveryKindOfTrafficNeverLoadsARecordDecoderOrBatchEncoder() throws Exception {
        Path classLog = dir.resolve("class-load.log");
        try (ChildBroker broker = ChildBroker.start(dir.resolve("data"), dir.resolve("broker.log"),
                EmbeddedKaas.FAST_GROUPS, "-Xlog:class+load=info:file=" + classLog)) {
            String servers = broker.bootstrapServers();
            String stamped = "tripwire-log-append-time";
            try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, servers))) {
                admin.createTopics(List.of(new NewTopic("tripwire", 2, (short) 1),
                        new NewTopic(stamped, 1, (short) 1).configs(Map.of("message.timestamp.type", "LogAppendTime"))))
                        .all().get();
            }
            int sent = 0;
            for (CompressionType codec : List.of(CompressionType.NONE, CompressionType.GZIP, CompressionType.SNAPPY,
                    CompressionType.LZ4, CompressionType.ZSTD)) {
                sent += produce(servers, Map.of(ProducerConfig.COMPRESSION_TYPE_CONFIG, codec.name), "tripwire", 200);
                sent += produce(servers, Map.of(ProducerConfig.COMPRESSION_TYPE_CONFIG, codec.name), stamped, 50);
            }
            int committed = transactions(servers);

            List<ConsumerRecord<byte[], byte[]>> read = new ArrayList<>();
            try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(EmbeddedKaas.consumerConfig(servers, Map.of(
                    ConsumerConfig.GROUP_ID_CONFIG, "tripwire-group",
                    ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed")))) {
                consumer.subscribe(List.of("tripwire", stamped));
                read.addAll(EmbeddedKaas.consume(consumer, sent + committed, EmbeddedKaas.DEFAULT_TIMEOUT));
                consumer.commitSync();
            }
            assertThat(read).as("every committed record, none of the aborted ones").hasSize(sent + committed);
            assertThat(read).noneMatch(r -> new String(r.value(), StandardCharsets.UTF_8).startsWith("aborted"));

            // the book's tripwire counters, as an operator's alert would read them: no site decoded a record
            PrometheusText metrics = PrometheusText.scrape(broker.healthPort());
            assertThat(metrics.samples()).filteredOn(s -> s.name().startsWith("kaas_codec_"))
                    .as("the tripwire counters, one per site").hasSize(8)
                    .allSatisfy(s -> assertThat(s.value()).as(s.toString()).isZero());
        }

        Set<String> loaded = loadedClasses(classLog);
        assertThat(loaded).as("the class-load log covers the broker's produce and fetch paths")
                .contains(KaasMain.class.getName(), "org.apache.kafka.common.message.ProduceRequestData",
                        "org.apache.kafka.common.message.FetchResponseData",
                        "org.apache.kafka.common.record.MemoryRecords");
        assertThat(intersection(loaded, RECORD_DECODERS)).as("record decoders the broker loaded").isEmpty();
        assertThat(intersection(loaded, BATCH_ENCODERS)).as("batch encoders the broker loaded").isEmpty();
    }

    private static int produce(String servers, Map<String, Object> settings, String topic, int count) throws Exception {
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(EmbeddedKaas.producerConfig(servers, settings))) {
            for (int i = 0; i < count; i++) {
                ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(topic, null, System.currentTimeMillis(),
                        ("k" + i).getBytes(StandardCharsets.UTF_8),
                        ("value " + i + " " + "x".repeat(i % 300)).getBytes(StandardCharsets.UTF_8),
                        List.of(new RecordHeader("h", new byte[] {(byte) i})));
                producer.send(record);
            }
            producer.flush();
        }
        return count;
    }

    /** One committed transaction of 20 records and one aborted; returns how many were committed. */
    private static int transactions(String servers) {
        Properties txn = new Properties();
        txn.putAll(EmbeddedKaas.producerConfig(servers, Map.of(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "tripwire-txn",
                ProducerConfig.COMPRESSION_TYPE_CONFIG, "zstd")));
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(txn)) {
            producer.initTransactions();
            producer.beginTransaction();
            for (int i = 0; i < 20; i++) {
                producer.send(new ProducerRecord<>("tripwire", i % 2, null, ("committed " + i).getBytes(StandardCharsets.UTF_8)));
            }
            producer.commitTransaction();
            producer.beginTransaction();
            for (int i = 0; i < 20; i++) {
                producer.send(new ProducerRecord<>("tripwire", i % 2, null, ("aborted " + i).getBytes(StandardCharsets.UTF_8)));
            }
            producer.flush();
            producer.abortTransaction();
        }
        return 20;
    }

    static Set<String> loadedClasses(Path classLog) throws Exception {
        Set<String> loaded = new TreeSet<>();
        for (String line : Files.readAllLines(classLog, StandardCharsets.UTF_8)) {
            Matcher m = CLASS_LOAD.matcher(line);
            if (m.find()) {
                loaded.add(m.group(1));
            }
        }
        return loaded;
    }

    private static Set<String> intersection(Set<String> loaded, Set<String> forbidden) {
        Set<String> hits = new TreeSet<>(loaded);
        hits.retainAll(forbidden);
        return hits;
    }
}
