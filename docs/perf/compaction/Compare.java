import java.io.File;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.*;
import org.apache.kafka.clients.admin.*;
import org.apache.kafka.clients.consumer.*;
import org.apache.kafka.clients.producer.*;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.record.*;
import org.apache.kafka.common.serialization.*;

/** docs/perf/2026-12-02-compaction.md, part 1: the same compacted data on a broker (fill), its segments as stored (files DIR), a consumer's read (dump). Run with java -cp .:$(peer-kafka.sh classpath). */
public class Compare {
    public static void main(String[] a) throws Exception {
        switch (a[0]) {
            case "fill" -> fill(a[1], a[2], a[3], a.length > 4 ? a[4] : "4096");
            case "pad" -> pad(a[1], a[2], Integer.parseInt(a[3]), a[4]);
            case "dump" -> dump(a[1], a[2]);
            case "files" -> files(a[1]);
        }
    }
    static Properties common(String bs) { Properties p = new Properties(); p.put("bootstrap.servers", bs); return p; }
    static KafkaProducer<String, String> producer(String bs, String txnId) {
        Properties p = common(bs);
        p.put("key.serializer", StringSerializer.class); p.put("value.serializer", StringSerializer.class);
        p.put("linger.ms", 0); p.put("max.in.flight.requests.per.connection", 1);
        if (txnId != null) p.put("transactional.id", txnId);
        return new KafkaProducer<>(p);
    }
    static void fill(String bs, String topic, String deleteRetention, String segmentBytes) throws Exception {
        try (Admin admin = Admin.create(common(bs))) {
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1).configs(Map.of("cleanup.policy", "compact",
                    "segment.bytes", segmentBytes, "min.cleanable.dirty.ratio", "0.01", "delete.retention.ms", deleteRetention))))
                    .all().get();
        }
        try (KafkaProducer<String, String> p = producer(bs, null)) {
            for (int r = 0; r < 20; r++) for (int k = 0; k < 10; k++) p.send(new ProducerRecord<>(topic, "key-" + k, "v" + r + "-" + k)).get();
            for (int k = 0; k < 10; k += 2) p.send(new ProducerRecord<>(topic, "key-" + k, null)).get();
        }
        try (KafkaProducer<String, String> t = producer(bs, topic + "-txn")) {
            t.initTransactions();
            t.beginTransaction();
            for (int k = 0; k < 5; k++) t.send(new ProducerRecord<>(topic, "t-" + k, "committed")).get();
            t.commitTransaction();
            t.beginTransaction();
            for (int k = 0; k < 5; k++) t.send(new ProducerRecord<>(topic, "a-" + k, "aborted")).get();
            t.send(new ProducerRecord<>(topic, "key-1", "aborted-update")).get();
            t.abortTransaction();
        }
        pad(bs, topic, 60, "pad");
    }
    static void pad(String bs, String topic, int n, String prefix) throws Exception {
        try (KafkaProducer<String, String> p = producer(bs, null)) {
            for (int i = 0; i < n; i++) p.send(new ProducerRecord<>(topic, prefix + "-" + i, "x".repeat(40))).get();
        }
    }
    static void dump(String bs, String topic) {
        Properties p = common(bs);
        p.put("key.deserializer", StringDeserializer.class); p.put("value.deserializer", StringDeserializer.class);
        p.put("isolation.level", "read_uncommitted");
        try (KafkaConsumer<String, String> c = new KafkaConsumer<>(p)) {
            TopicPartition tp = new TopicPartition(topic, 0);
            c.assign(List.of(tp)); c.seekToBeginning(List.of(tp));
            long end = c.endOffsets(List.of(tp)).get(tp);
            System.out.println("# start " + c.beginningOffsets(List.of(tp)).get(tp) + " end " + end);
            long deadline = System.currentTimeMillis() + 30_000;
            while (c.position(tp) < end && System.currentTimeMillis() < deadline)
                for (ConsumerRecord<String, String> r : c.poll(Duration.ofMillis(500)))
                    System.out.println(r.offset() + " " + r.key() + " " + r.value());
        }
    }
    static void files(String dir) throws Exception {
        File[] logs = new File(dir).listFiles((d, n) -> n.endsWith(".log"));
        Arrays.sort(logs, Comparator.comparingLong(f -> Long.parseLong(f.getName().replaceAll("^.*-|\\.log$", "").replaceAll("^0+(?=.)", ""))));
        for (File f : logs) {
            System.out.println("# segment " + f.getName().replaceAll("^.*-|\\.log$", "").replaceAll("^0+(?=.)", ""));
            try (FileRecords fr = FileRecords.open(f)) {
                for (FileLogInputStream.FileChannelRecordBatch b : fr.batches()) {
                    StringBuilder s = new StringBuilder("batch " + b.baseOffset() + ".." + b.lastOffset()
                            + (b.isControlBatch() ? " control" : "") + (b.isTransactional() ? " txn" : "")
                            + (b.deleteHorizonMs().isPresent() ? " horizon" : "") + " [");
                    for (org.apache.kafka.common.record.Record r : b) {
                        String key = r.hasKey() ? StandardCharsets.UTF_8.decode(r.key()).toString() : "null";
                        if (b.isControlBatch()) key = ControlRecordType.parse(r.key()).name();
                        s.append(r.offset()).append(':').append(key).append(r.hasValue() ? "" : "(tombstone)").append(' ');
                    }
                    System.out.println(s.append(']'));
                }
            }
        }
    }
}
