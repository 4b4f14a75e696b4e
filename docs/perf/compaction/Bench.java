import java.io.File;
import java.util.*;
import java.util.concurrent.*;
import org.apache.kafka.clients.admin.*;
import org.apache.kafka.clients.producer.*;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.*;

/** docs/perf/2026-12-02-compaction.md, part 2: cleaning time of 32.5 MB and produce latency while it runs. Run with java -cp .:$(peer-kafka.sh classpath). */
public class Bench {
    public static void main(String[] a) throws Exception {
        String bs = a[0], topic = a[1], dir = a[2];
        int mb = Integer.parseInt(a[3]);
        Properties c = new Properties(); c.put("bootstrap.servers", bs);
        try (Admin admin = Admin.create(c)) {
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1).configs(Map.of("cleanup.policy", "compact",
                    "segment.bytes", "1048576", "min.compaction.lag.ms", "3600000", "min.cleanable.dirty.ratio", "0.5")),
                    new NewTopic(topic + "-load", 1, (short) 1))).all().get();
            byte[] value = new byte[1000];
            new Random(1).nextBytes(value);
            try (KafkaProducer<byte[], byte[]> p = producer(bs, 5)) {
                for (int i = 0; i < mb * 1000; i++) p.send(new ProducerRecord<>(topic, ("key-" + (i % 500)).getBytes(), value));
                p.flush();
            }
            long before = logBytes(dir);
            load(bs, topic + "-load", 5_000, null); // warm-up, not measured
            double[] base = load(bs, topic + "-load", 10_000, null);
            admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.TOPIC, topic),
                    List.of(new AlterConfigOp(new ConfigEntry("min.compaction.lag.ms", "0"), AlterConfigOp.OpType.SET)))).all().get();
            long t0 = System.nanoTime();
            long[] doneAt = {0};
            long target = before / 10;
            List<long[]> samples = new ArrayList<>();
            loadSamples(bs, topic + "-load", 20_000, () -> {
                if (doneAt[0] == 0 && logBytes(dir) < target) doneAt[0] = System.nanoTime();
            }, samples);
            while (doneAt[0] == 0 && System.nanoTime() - t0 < 120_000_000_000L) {
                Thread.sleep(50);
                if (logBytes(dir) < target) doneAt[0] = System.nanoTime();
            }
            double secs = (doneAt[0] - t0) / 1e9;
            double[] during = stats(samples, t0, doneAt[0], secs * 1000);
            System.out.printf(Locale.ROOT, "{\"topic\":\"%s\",\"logBytesBefore\":%d,\"logBytesAfter\":%d,\"cleanSeconds\":%.2f,\"MBps\":%.1f,"
                    + "\"baseP50\":%.2f,\"baseP99\":%.2f,\"baseRate\":%.0f,\"duringP50\":%.2f,\"duringP99\":%.2f,\"duringRate\":%.0f}%n",
                    topic, before, logBytes(dir), secs, before / 1e6 / secs, base[0], base[1], base[2], during[0], during[1], during[2]);
        }
    }
    static KafkaProducer<byte[], byte[]> producer(String bs, int linger) {
        Properties p = new Properties(); p.put("bootstrap.servers", bs);
        p.put("key.serializer", ByteArraySerializer.class); p.put("value.serializer", ByteArraySerializer.class);
        p.put("linger.ms", linger); p.put("acks", "all"); p.put("batch.size", 65536);
        return new KafkaProducer<>(p);
    }
    /** 500 records/s of 1 KB for ms; p50, p99 latency (ms) and achieved rate; tick runs every 50 ms. */
    static double[] load(String bs, String topic, long ms, Runnable tick) throws Exception {
        List<long[]> samples = new ArrayList<>();
        loadSamples(bs, topic, ms, tick, samples);
        return stats(samples, Long.MIN_VALUE, Long.MAX_VALUE, ms);
    }
    /** p50, p99 (ms) and rate of the sends issued in [from, to). */
    static double[] stats(List<long[]> samples, long from, long to, double windowMs) {
        List<Double> s = new ArrayList<>();
        synchronized (samples) { for (long[] x : samples) if (x[0] >= from && x[0] < to) s.add(x[1] / 1e6); }
        Collections.sort(s);
        return new double[] {s.get(s.size() / 2), s.get((int) (s.size() * 0.99)), s.size() * 1000.0 / windowMs};
    }
    static void loadSamples(String bs, String topic, long ms, Runnable tick, List<long[]> lat) throws Exception {
        byte[] v = new byte[1000];
        long start = System.nanoTime();
        int sent = 0;
        try (KafkaProducer<byte[], byte[]> p = producer(bs, 0)) {
            while (System.nanoTime() - start < ms * 1_000_000L) {
                long due = start + sent * 2_000_000L;
                long now = System.nanoTime();
                if (now < due) { Thread.sleep(Math.max(0, (due - now) / 1_000_000L)); if (tick != null && sent % 25 == 0) tick.run(); continue; }
                long t = System.nanoTime();
                p.send(new ProducerRecord<>(topic, v), (m, e) -> { synchronized (lat) { lat.add(new long[] {t, System.nanoTime() - t}); } });
                sent++;
            }
            p.flush();
        }
    }
    static long logBytes(String dir) {
        File[] fs = new File(dir).listFiles((d, n) -> n.endsWith(".log"));
        long sum = 0;
        if (fs != null) for (File f : fs) sum += f.length();
        return sum;
    }
}
