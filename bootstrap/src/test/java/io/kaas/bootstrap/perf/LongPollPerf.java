package io.kaas.bootstrap.perf;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The long-poll benchmark of issue 11, run against any broker with the same client code: a topic of
 * P partitions, C consumers long-polling it ({@code fetch.max.wait.ms=500}, {@code fetch.min.bytes=1})
 * and one producer sending R records/s of S bytes open loop at a fixed rate, round robin over the
 * partitions ({@code acks=all}, {@code linger.ms=0}). Each record carries its intended send time;
 * a consumer's sample is the time from then until its poll returned the record (no coordinated
 * omission). In {@code group} mode the consumers share one group (P/C partitions each, so most of
 * the time C fetches are parked and an append wakes one); in {@code fanout} mode every consumer reads
 * every partition (assign, no group), so an append wakes C parked fetches of P partitions each - on
 * a small machine that load is bound by the client JVM long before the broker, so lower the rate.
 *
 * <p>Reports, for the measured window after a warm-up: end-to-end latency p50/p99/p99.9/max, how many
 * samples arrived of those expected, the consumers' fetch requests per second, the producer's lag
 * behind its schedule (p99: when it is large, the driver, not the broker, was the bottleneck), the
 * window's wall-clock length, in group mode the assignment changes consumers saw in the window (0: the
 * group stayed stable; the window starts once it has been for 3 s), and, given {@code -Dbroker.pid=PID}
 * of a local broker, the broker's CPU seconds in the window and as a share of one core (from /proc);
 * the driver's own CPU beside it.
 *
 * <p>Usage: {@code LongPollPerf host:port [seconds] [consumers] [partitions] [rate] [recordBytes] [group|fanout]
 * [warmupSeconds]} (defaults 20, 50, 200, 1000, 200, group, 5); prints one JSON object. Not a test:
 * a main that bench/longpoll.sh runs.
 */
public final class LongPollPerf {
    private static final long NANOS = 1_000_000_000L;

    private LongPollPerf() {
    }

    public static void main(String[] args) throws Exception {
        String bootstrap = args[0];
        int seconds = intArg(args, 1, 20);
        int consumers = intArg(args, 2, 50);
        int partitions = intArg(args, 3, 200);
        int rate = intArg(args, 4, 1000);
        int recordBytes = Math.max(intArg(args, 5, 200), Long.BYTES);
        boolean fanout = args.length > 6 && args[6].equals("fanout");
        int warmup = intArg(args, 7, 5);
        long brokerPid = Long.getLong("broker.pid", -1L);

        String run = Long.toString(System.nanoTime(), 36);
        String topic = "perf-longpoll-" + run;
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get(60, TimeUnit.SECONDS);
            try {
                Result r = new LongPollPerf().measure(bootstrap, topic, "perf-longpoll-" + run, seconds, consumers,
                        partitions, rate, recordBytes, fanout, warmup, brokerPid);
                System.out.printf(Locale.ROOT, "{\"scenario\":\"longpoll\",\"mode\":\"%s\",\"partitions\":%d,"
                                + "\"consumers\":%d,\"rate\":%d,\"record_bytes\":%d,\"seconds\":%d,\"sent\":%d,"
                                + "\"samples\":%d,\"expected_samples\":%d,\"lat_p50_ms\":%.2f,\"lat_p99_ms\":%.2f,"
                                + "\"lat_p999_ms\":%.2f,\"lat_max_ms\":%.2f,\"fetches_per_s\":%.1f,"
                                + "\"send_lag_p99_ms\":%.2f,\"window_s\":%.2f,\"broker_cpu_s\":%s,"
                                + "\"broker_cpu_pct\":%s,\"driver_cpu_s\":%.2f,\"assignment_changes_in_window\":%d}%n",
                        fanout ? "fanout" : "group", partitions, consumers, rate, recordBytes, seconds, r.sent,
                        r.latencies.length, r.expectedSamples, ms(percentile(r.latencies, 50)),
                        ms(percentile(r.latencies, 99)), ms(percentile(r.latencies, 99.9)),
                        ms(percentile(r.latencies, 100)), r.fetches / r.windowS, ms(percentile(r.sendLags, 99)),
                        r.windowS, r.brokerCpuS < 0 ? "null" : String.format(Locale.ROOT, "%.2f", r.brokerCpuS),
                        r.brokerCpuS < 0 ? "null" : String.format(Locale.ROOT, "%.1f", 100 * r.brokerCpuS / r.windowS),
                        r.driverCpuS, r.rebalances);
            } finally {
                admin.deleteTopics(List.of(topic)).all().get(60, TimeUnit.SECONDS);
            }
        }
    }

    /** {@code windowS}: the measured window's wall-clock length, longer than asked when the producer fell behind. */
    private record Result(long sent, long[] latencies, long expectedSamples, long fetches, long[] sendLags,
                          double windowS, double brokerCpuS, double driverCpuS, long rebalances) {
    }

    private Result measure(String bootstrap, String topic, String group, int seconds, int consumers, int partitions,
                           int rate, int recordBytes, boolean fanout, int warmup, long brokerPid) throws Exception {
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicLong assigned = new AtomicLong();
        AtomicLong lastRebalance = new AtomicLong(System.nanoTime());
        AtomicLong rebalancesInWindow = new AtomicLong();
        CountDownLatch ready = new CountDownLatch(consumers);
        // The window, in the producer's intended-send-time clock; set once the consumers are ready.
        AtomicLong windowStart = new AtomicLong(Long.MAX_VALUE);
        AtomicLong windowEnd = new AtomicLong(Long.MAX_VALUE);
        List<Poller> pollers = new ArrayList<>();
        for (int c = 0; c < consumers; c++) {
            Poller p = new Poller(consumer(bootstrap, fanout ? null : group), topic, partitions, fanout, running,
                    new Assignments(assigned, lastRebalance, rebalancesInWindow), ready, windowStart, windowEnd);
            pollers.add(p);
            p.thread.start();
        }
        if (!ready.await(180, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the consumers were not all assigned and positioned in 180 s");
        }
        if (!fanout) { // every partition assigned and no rebalance for 3 s: the group has settled
            long deadline = System.nanoTime() + 120 * NANOS;
            while ((assigned.get() != partitions || System.nanoTime() - lastRebalance.get() < 3 * NANOS)
                    && System.nanoTime() < deadline) {
                LockSupport.parkNanos(10_000_000L); // a driver, not a test
            }
        }
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.LINGER_MS_CONFIG, 0);
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        long sent = 0;
        long[] sendLags = new long[seconds * rate];
        long wall0 = 0;
        long wall1;
        double brokerCpu0;
        double driverCpu0;
        double brokerCpu1;
        double driverCpu1;
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props)) {
            producer.partitionsFor(topic);
            long interval = NANOS / rate;
            long start = System.nanoTime() + 100_000_000L;
            windowStart.set(start + warmup * NANOS);
            windowEnd.set(start + (warmup + seconds) * NANOS);
            brokerCpu0 = Double.NaN;
            driverCpu0 = Double.NaN;
            long total = (long) (warmup + seconds) * rate;
            for (long i = 0; i < total; i++) {
                long intended = start + i * interval;
                if (Double.isNaN(brokerCpu0) && intended >= windowStart.get()) {
                    brokerCpu0 = cpuSeconds(brokerPid);
                    driverCpu0 = driverCpuSeconds();
                    wall0 = System.nanoTime();
                }
                long wait = intended - System.nanoTime();
                if (wait > 0) {
                    LockSupport.parkNanos(wait);
                }
                byte[] value = new byte[recordBytes];
                ByteBuffer.wrap(value).putLong(intended);
                producer.send(new ProducerRecord<>(topic, (int) (i % partitions), null, value));
                if (intended >= windowStart.get()) {
                    if (sent < sendLags.length) {
                        sendLags[(int) sent] = Math.max(0, System.nanoTime() - intended);
                    }
                    sent++;
                }
            }
            producer.flush();
            long last = windowEnd.get();
            LockSupport.parkNanos(Math.max(0, last - System.nanoTime()));
            brokerCpu1 = cpuSeconds(brokerPid);
            driverCpu1 = driverCpuSeconds();
            wall1 = System.nanoTime();
        }
        long expected = sent * (fanout ? consumers : 1);
        long drainDeadline = System.nanoTime() + 5 * NANOS;
        while (System.nanoTime() < drainDeadline && pollers.stream().mapToLong(Poller::samples).sum() < expected) {
            LockSupport.parkNanos(10_000_000L);
        }
        running.set(false);
        long fetches = 0;
        List<long[]> all = new ArrayList<>();
        for (Poller p : pollers) {
            p.thread.join(10_000);
            fetches += p.fetchesInWindow();
            all.add(p.latencies());
        }
        long[] latencies = all.stream().flatMapToLong(Arrays::stream).sorted().toArray();
        long[] lags = Arrays.copyOf(sendLags, (int) Math.min(sent, sendLags.length));
        Arrays.sort(lags);
        return new Result(sent, latencies, expected, fetches, lags, (wall1 - wall0) / (double) NANOS,
                brokerPid < 0 ? -1 : brokerCpu1 - brokerCpu0, driverCpu1 - driverCpu0, rebalancesInWindow.get());
    }

    private static KafkaConsumer<byte[], byte[]> consumer(String bootstrap, String group) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 500);
        props.put(ConsumerConfig.FETCH_MIN_BYTES_CONFIG, 1);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest");
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        if (group != null) {
            props.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        }
        return new KafkaConsumer<>(props);
    }

    /** Partitions assigned over the group, when it last changed, and how often it did in the window. */
    private record Assignments(AtomicLong assigned, AtomicLong lastChange, AtomicLong changesInWindow) {
        void changed(int delta, long windowStart, long windowEnd) {
            assigned.addAndGet(delta);
            long now = System.nanoTime();
            lastChange.set(now);
            if (now >= windowStart && now < windowEnd) { // not the consumers' close after it
                changesInWindow.incrementAndGet();
            }
        }
    }

    /** One consumer on its own thread: it alone touches its KafkaConsumer. */
    private static final class Poller implements Runnable {
        final Thread thread;
        private final KafkaConsumer<byte[], byte[]> consumer;
        private final String topic;
        private final int partitions;
        private final boolean fanout;
        private final AtomicBoolean running;
        private final Assignments assignments;
        private final CountDownLatch ready;
        private final AtomicLong windowStart;
        private final AtomicLong windowEnd;
        private long[] samples = new long[1024];
        private volatile int count;
        private double fetchTotalAtStart = Double.NaN;
        private double fetchTotalAtEnd = Double.NaN;

        Poller(KafkaConsumer<byte[], byte[]> consumer, String topic, int partitions, boolean fanout, AtomicBoolean running,
               Assignments assignments, CountDownLatch ready, AtomicLong windowStart, AtomicLong windowEnd) {
            this.consumer = consumer;
            this.topic = topic;
            this.partitions = partitions;
            this.fanout = fanout;
            this.running = running;
            this.assignments = assignments;
            this.ready = ready;
            this.windowStart = windowStart;
            this.windowEnd = windowEnd;
            this.thread = new Thread(this, "longpoll-consumer");
            this.thread.setDaemon(true);
        }

        @Override
        public void run() {
            try (consumer) {
                if (fanout) {
                    List<TopicPartition> all = new ArrayList<>();
                    for (int p = 0; p < partitions; p++) {
                        all.add(new TopicPartition(topic, p));
                    }
                    consumer.assign(all);
                    consumer.seekToEnd(all);
                    all.forEach(consumer::position); // resolve now, before anything is produced
                    ready.countDown();
                } else {
                    consumer.subscribe(List.of(topic), new ConsumerRebalanceListener() {
                        private boolean counted;

                        @Override
                        public void onPartitionsRevoked(Collection<TopicPartition> revoked) {
                            assignments.changed(-revoked.size(), windowStart.get(), windowEnd.get());
                        }

                        @Override
                        public void onPartitionsAssigned(Collection<TopicPartition> added) {
                            assignments.changed(added.size(), windowStart.get(), windowEnd.get());
                            added.forEach(consumer::position);
                            if (!counted && !added.isEmpty()) {
                                counted = true;
                                ready.countDown();
                            }
                        }
                    });
                }
                while (running.get()) {
                    var records = consumer.poll(Duration.ofMillis(200));
                    long now = System.nanoTime();
                    for (ConsumerRecord<byte[], byte[]> r : records) {
                        long intended = ByteBuffer.wrap(r.value()).getLong();
                        if (intended >= windowStart.get() && intended < windowEnd.get()) {
                            add(now - intended);
                        }
                    }
                    if (Double.isNaN(fetchTotalAtStart) && now >= windowStart.get()) {
                        fetchTotalAtStart = fetchTotal();
                    }
                    if (Double.isNaN(fetchTotalAtEnd) && now >= windowEnd.get()) {
                        fetchTotalAtEnd = fetchTotal();
                    }
                }
            }
        }

        private void add(long nanos) {
            if (count == samples.length) {
                samples = Arrays.copyOf(samples, samples.length * 2);
            }
            samples[count] = nanos;
            count = count + 1; // one writer: this thread
        }

        long samples() {
            return count;
        }

        long[] latencies() {
            return Arrays.copyOf(samples, count); // after join
        }

        long fetchesInWindow() {
            return Double.isNaN(fetchTotalAtStart) || Double.isNaN(fetchTotalAtEnd) ? 0
                    : Math.round(fetchTotalAtEnd - fetchTotalAtStart);
        }

        private double fetchTotal() {
            for (Map.Entry<?, ? extends Metric> e : consumer.metrics().entrySet()) {
                var name = e.getValue().metricName();
                if (name.name().equals("fetch-total") && name.group().equals("consumer-fetch-manager-metrics")
                        && !name.tags().containsKey("topic")) {
                    return ((Number) e.getValue().metricValue()).doubleValue();
                }
            }
            return Double.NaN;
        }
    }

    /** User + system CPU seconds of a local process, from /proc; NaN-free: -1 without a pid. */
    private static double cpuSeconds(long pid) {
        if (pid < 0) {
            return -1;
        }
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]); // utime, stime
            return ticks / 100.0; // USER_HZ is 100 on Linux
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    private static double driverCpuSeconds() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime() / (double) NANOS;
    }

    private static long percentile(long[] sorted, double p) {
        if (sorted.length == 0) {
            return 0;
        }
        int index = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
    }

    private static double ms(long nanos) {
        return nanos / 1_000_000.0;
    }

    private static int intArg(String[] args, int index, int fallback) {
        return args.length > index ? Integer.parseInt(args[index]) : fallback;
    }
}
