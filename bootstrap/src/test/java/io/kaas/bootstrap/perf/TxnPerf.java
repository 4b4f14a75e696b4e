package io.kaas.bootstrap.perf;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The transactional-produce benchmark of issue 5, run against any broker with the same client
 * code: P producers (each its own transactional id, its own partition) run transactions of R
 * records of S bytes back to back - begin, R sends, commitTransaction - for D seconds after a
 * warm-up. Reports committed transactions and records per second, and the latency of
 * commitTransaction() (the EndTxn round trip, which flushes the last sends first) and of whole
 * transactions, p50 and p99.
 *
 * <p>Usage: {@code TxnPerf host:port [seconds] [producers] [records] [recordBytes]}; prints one JSON
 * object. Not a test: a main the perf script runs.
 */
public final class TxnPerf {
    private static final String TOPIC = "perf-txn";

    private TxnPerf() {
    }

    public static void main(String[] args) throws Exception {
        String bootstrap = args[0];
        int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 20;
        int producers = args.length > 2 ? Integer.parseInt(args[2]) : 1;
        int records = args.length > 3 ? Integer.parseInt(args[3]) : 100;
        int recordBytes = args.length > 4 ? Integer.parseInt(args[4]) : 100;
        createTopic(bootstrap, producers);
        String run = Long.toString(System.nanoTime(), 36);
        ExecutorService threads = Executors.newFixedThreadPool(producers);
        List<Future<Stats>> futures = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            int partition = p;
            futures.add(threads.submit(() -> produce(bootstrap, "perf-" + run + "-" + partition, partition, seconds,
                    records, recordBytes)));
        }
        List<Long> commitNanos = new ArrayList<>();
        List<Long> txnNanos = new ArrayList<>();
        long transactions = 0;
        for (Future<Stats> f : futures) {
            Stats s = f.get();
            commitNanos.addAll(s.commitNanos);
            txnNanos.addAll(s.txnNanos);
            transactions += s.commitNanos.size();
        }
        threads.shutdown();
        Collections.sort(commitNanos);
        Collections.sort(txnNanos);
        System.out.printf(Locale.ROOT, "{\"scenario\":\"transactions\",\"producers\":%d,\"records_per_txn\":%d,"
                        + "\"record_bytes\":%d,\"seconds\":%d,\"txn_per_s\":%.1f,\"records_per_s\":%.0f,"
                        + "\"commit_p50_ms\":%.2f,\"commit_p99_ms\":%.2f,\"txn_p50_ms\":%.2f,\"txn_p99_ms\":%.2f}%n",
                producers, records, recordBytes, seconds, transactions / (double) seconds,
                transactions * records / (double) seconds, ms(percentile(commitNanos, 50)), ms(percentile(commitNanos, 99)),
                ms(percentile(txnNanos, 50)), ms(percentile(txnNanos, 99)));
    }

    private static Stats produce(String bootstrap, String transactionalId, int partition, int seconds, int records,
                                 int recordBytes) {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.LINGER_MS_CONFIG, 0);
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        byte[] value = new byte[recordBytes];
        Stats stats = new Stats();
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props)) {
            producer.initTransactions();
            long warmUpEnd = System.nanoTime() + 3_000_000_000L;
            long end = warmUpEnd + seconds * 1_000_000_000L;
            while (true) {
                long start = System.nanoTime();
                if (start >= end) {
                    break;
                }
                producer.beginTransaction();
                for (int i = 0; i < records; i++) {
                    producer.send(new ProducerRecord<>(TOPIC, partition, null, value));
                }
                long commitStart = System.nanoTime();
                producer.commitTransaction();
                long done = System.nanoTime();
                if (start >= warmUpEnd) {
                    stats.commitNanos.add(done - commitStart);
                    stats.txnNanos.add(done - start);
                }
            }
        }
        return stats;
    }

    private static void createTopic(String bootstrap, int partitions) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            if (!admin.listTopics().names().get().contains(TOPIC)) {
                admin.createTopics(List.of(new NewTopic(TOPIC, Math.max(partitions, 4), (short) 1))).all().get();
            }
        }
    }

    private static long percentile(List<Long> sorted, int p) {
        if (sorted.isEmpty()) {
            return 0;
        }
        return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(p / 100.0 * sorted.size()) - 1));
    }

    private static double ms(long nanos) {
        return nanos / 1_000_000.0;
    }

    private static final class Stats {
        final List<Long> commitNanos = new ArrayList<>();
        final List<Long> txnNanos = new ArrayList<>();
    }
}
