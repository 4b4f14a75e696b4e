package io.kaas.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.bootstrap.testing.EmbeddedKaas;
import io.kaas.bootstrap.testing.RawKafkaConnection;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.record.CompressionType;
import org.apache.kafka.common.record.MemoryRecords;
import org.apache.kafka.common.record.RecordBatch;

/**
 * ListOffsets by timestamp over what a batching producer writes (linger 50 ms, bursts of 500 records
 * with rising timestamps set on each record), asked through the consumer's {@code offsetsForTimes}
 * and the admin client's {@code listOffsets}, and checked against answers computed from what was
 * produced. It names no broker: {@link RecordExactTimestampsIT} runs it on kaas and, when given
 * one, on Apache Kafka 3.7, so the same expectations hold for both.
 */
final class TimestampLookupScenario implements AutoCloseable {
    static final long BASE = 1_700_000_000_000L;
    static final int BURSTS = 4;
    static final int PER_BURST = 500;
    /** The largest timestamp, on a record in the middle of the second burst. */
    static final long LARGEST = BASE + 900_000;
    /** A record of the third burst older than all of the second: offset order, not timestamp order, decides. */
    static final long OLDER_LATER = BASE + 50_005;

    private final String servers;
    private final Admin admin;
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final List<String> mismatches = new ArrayList<>();
    private int lookups;
    private int insideBatches;
    /** Round trips of the consumer's lookups by timestamp, printed (not asserted: the machine is shared). */
    private final List<Long> lookupMicros = new ArrayList<>();

    TimestampLookupScenario(String servers) {
        this.servers = servers;
        this.admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, servers,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 30_000));
        this.consumer = new KafkaConsumer<>(EmbeddedKaas.consumerConfig(servers, Map.of()));
    }

    /** A record as the log holds it, and a batch as a fetch returns it. */
    record Stamped(long offset, long timestamp) {
    }

    record Batch(long baseOffset, long lastOffset, long maxTimestamp) {
    }

    /** The timestamp the producer sets on record {@code i} of burst {@code burst}. */
    static long timestampOf(int burst, int i) {
        if (burst == 1 && i == PER_BURST / 2) {
            return LARGEST;
        }
        if (burst == 2 && i == 100) {
            return OLDER_LATER;
        }
        return BASE + burst * 100_000L + i * 10L;
    }

    /** Creates {@code topic} and fills it; returns each record's offset and the timestamp it was given. */
    List<Stamped> fill(String topic, CompressionType codec, Map<String, String> topicConfigs) throws Exception {
        admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1).configs(topicConfigs))).all().get();
        List<Stamped> produced = new ArrayList<>();
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(EmbeddedKaas.producerConfig(servers, Map.of(
                ProducerConfig.LINGER_MS_CONFIG, 50, ProducerConfig.BATCH_SIZE_CONFIG, 1 << 20,
                ProducerConfig.COMPRESSION_TYPE_CONFIG, codec.name, ProducerConfig.ACKS_CONFIG, "all")))) {
            for (int burst = 0; burst < BURSTS; burst++) {
                List<Future<RecordMetadata>> sent = new ArrayList<>();
                for (int i = 0; i < PER_BURST; i++) {
                    byte[] value = ("burst " + burst + " record " + i + " of a batching producer")
                            .getBytes(StandardCharsets.UTF_8);
                    sent.add(producer.send(new ProducerRecord<>(topic, 0, timestampOf(burst, i), null, value)));
                }
                producer.flush(); // the burst's batch goes now: the next burst starts a new one
                for (Future<RecordMetadata> f : sent) {
                    RecordMetadata written = f.get();
                    produced.add(new Stamped(written.offset(), written.timestamp()));
                }
            }
        }
        return produced;
    }

    /** What a consumer reads: every record's offset and timestamp (for LogAppendTime, the broker's). */
    List<Stamped> readBack(String topic, int count) {
        TopicPartition tp = new TopicPartition(topic, 0);
        consumer.assign(List.of(tp));
        consumer.seekToBeginning(List.of(tp));
        List<Stamped> read = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> r : EmbeddedKaas.consume(consumer, count, EmbeddedKaas.DEFAULT_TIMEOUT)) {
            read.add(new Stamped(r.offset(), r.timestamp()));
        }
        consumer.unsubscribe();
        return read;
    }

    /** The partition's batches as the broker stores them, by fetching it raw. */
    List<Batch> batches(String topic) {
        String[] hostPort = servers.split(":");
        List<Batch> batches = new ArrayList<>();
        try (RawKafkaConnection raw = RawKafkaConnection.connect(hostPort[0], Integer.parseInt(hostPort[1]))) {
            long next = 0;
            while (true) {
                var answer = raw.fetch(topic, 0, next, 8 << 20);
                int before = batches.size();
                for (RecordBatch b : ((MemoryRecords) answer.records()).batches()) {
                    batches.add(new Batch(b.baseOffset(), b.lastOffset(), b.maxTimestamp()));
                    next = b.nextOffset();
                }
                if (batches.size() == before || next >= answer.highWatermark()) {
                    return batches;
                }
            }
        }
    }

    /**
     * Asks for each of {@code targets} (and the sentinels) through both clients and records every answer
     * that differs from Apache 3.7's rule: the first record in offset order whose timestamp is at least
     * the target; for the largest timestamp, the last offset of the first batch holding it.
     */
    void check(String topic, List<Stamped> log, List<Batch> batches, TreeSet<Long> targets) throws Exception {
        TopicPartition tp = new TopicPartition(topic, 0);
        for (long target : targets) {
            Stamped expected = log.stream().filter(r -> r.timestamp() >= target).findFirst().orElse(null);
            long start = System.nanoTime();
            OffsetAndTimestamp byConsumer = consumer.offsetsForTimes(Map.of(tp, target)).get(tp);
            lookupMicros.add((System.nanoTime() - start) / 1_000);
            Stamped consumerSaw = byConsumer == null ? null : new Stamped(byConsumer.offset(), byConsumer.timestamp());
            ListOffsetsResultInfo byAdmin = admin.listOffsets(Map.of(tp, OffsetSpec.forTimestamp(target)))
                    .partitionResult(tp).get();
            Stamped adminSaw = byAdmin.offset() < 0 ? null : new Stamped(byAdmin.offset(), byAdmin.timestamp());
            compare(topic + " at " + target, expected, consumerSaw, adminSaw);
            if (expected != null && batches.stream().noneMatch(b -> b.baseOffset() == expected.offset())) {
                insideBatches++;
            }
        }
        long largest = log.stream().mapToLong(Stamped::timestamp).max().orElseThrow();
        Batch holding = batches.stream().filter(b -> b.maxTimestamp() == largest).findFirst().orElseThrow();
        ListOffsetsResultInfo max = admin.listOffsets(Map.of(tp, OffsetSpec.maxTimestamp())).partitionResult(tp).get();
        compare(topic + " max timestamp", new Stamped(holding.lastOffset(), largest), new Stamped(max.offset(),
                max.timestamp()), new Stamped(max.offset(), max.timestamp()));
        long end = log.get(log.size() - 1).offset() + 1;
        compare(topic + " earliest", new Stamped(0, -1), sentinel(tp, OffsetSpec.earliest()),
                new Stamped(consumer.beginningOffsets(List.of(tp)).get(tp), -1));
        compare(topic + " latest", new Stamped(end, -1), sentinel(tp, OffsetSpec.latest()),
                new Stamped(consumer.endOffsets(List.of(tp)).get(tp), -1));
    }

    /** The timestamps before, at, inside, between and after the batches of {@code batches} over {@code log}. */
    static TreeSet<Long> targetsAround(List<Stamped> log, List<Batch> batches) {
        TreeSet<Long> targets = new TreeSet<>(List.of(0L, BASE - 1, OLDER_LATER, OLDER_LATER + 1));
        for (Batch b : batches) {
            List<Stamped> in = log.stream().filter(r -> r.offset() >= b.baseOffset() && r.offset() <= b.lastOffset())
                    .toList();
            for (Stamped r : List.of(in.get(0), in.get(in.size() / 3), in.get(in.size() - 1))) {
                targets.addAll(List.of(r.timestamp() - 1, r.timestamp(), r.timestamp() + 1));
            }
            targets.add(b.maxTimestamp() + 1);
        }
        return targets;
    }

    private Stamped sentinel(TopicPartition tp, OffsetSpec spec) throws ExecutionException, InterruptedException {
        ListOffsetsResultInfo found = admin.listOffsets(Map.of(tp, spec)).partitionResult(tp).get();
        return new Stamped(found.offset(), found.timestamp());
    }

    private void compare(String what, Stamped expected, Stamped consumerSaw, Stamped adminSaw) {
        lookups++;
        if (!Objects.equals(expected, consumerSaw) || !Objects.equals(expected, adminSaw)) {
            mismatches.add(what + ": expected " + expected + ", consumer " + consumerSaw + ", admin " + adminSaw);
        }
    }

    /** Every answer agreed with the rule, and enough of them fell inside batches to tell records from batches. */
    void assertAllAgreed() {
        List<Long> sorted = lookupMicros.stream().sorted().toList();
        System.out.printf("timestamp lookups on %s: %d asked, %d answered inside a batch, %d mismatched;"
                        + " offsetsForTimes round trip p50 %d us, p99 %d us%n", servers, lookups, insideBatches,
                mismatches.size(), sorted.get(sorted.size() / 2), sorted.get(sorted.size() * 99 / 100));
        assertThat(mismatches).isEmpty();
        assertThat(insideBatches).as("answers that a batch-granular lookup would get wrong").isGreaterThan(20);
    }

    @Override
    public void close() {
        consumer.close();
        admin.close();
    }
}
