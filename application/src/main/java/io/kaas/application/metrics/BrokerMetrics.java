package io.kaas.application.metrics;

import io.kaas.application.port.in.TrafficMetrics;
import io.kaas.domain.quota.QuotaType;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * The broker's own counters, recorded on the hot paths and read by the exporter. Recording takes
 * no lock and allocates nothing once a topic, API or listener has been seen: counters are
 * {@link java.util.concurrent.atomic.LongAdder}s, looked up in concurrent maps (or an array, for
 * API keys) whose entries are created once.
 *
 * <p>Cardinality: per topic (forgotten when the topic is deleted), per API key, per listener; no
 * per-partition or per-client series are recorded here.
 */
public final class BrokerMetrics implements TrafficMetrics {
    /** Room for every API key Kafka 3.7 defines (the highest is below 100). */
    private static final int API_KEYS = 128;

    private final LongSupplier nanoTime;
    private final Map<String, TopicTraffic> topics = new ConcurrentHashMap<>();
    private final AtomicReferenceArray<RequestStats> requests = new AtomicReferenceArray<>(API_KEYS);
    private final Map<String, ConnectionCount> listeners = new ConcurrentHashMap<>();
    private final Histogram fsyncNanos = Histogram.latencyNanos();
    private final Histogram journalFsyncNanos = Histogram.latencyNanos();
    /** Throttle times handed out, in milliseconds, per quota type. */
    private final Map<QuotaType, Histogram> throttleTimes = new EnumMap<>(QuotaType.class);
    /** Appends acknowledged by one group-commit fsync. */
    private final Histogram groupCommitAppends = new Histogram(1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024);
    /** Bytes of appends one group-commit fsync made durable. */
    private final Histogram fsyncBytes = new Histogram(1L << 10, 1L << 12, 1L << 14, 1L << 16, 1L << 18, 1L << 20,
            1L << 22, 1L << 24);
    private final LongAdder acksBeforeSync = new LongAdder();
    private final ByteOpacityTripwires tripwires = new ByteOpacityTripwires();
    /** A produced batch's way to its acknowledgement, one histogram per {@link ProduceStep}. */
    private final Histogram[] produceSteps = new Histogram[ProduceStep.values().length];

    /** @param nanoTime a monotonic clock in nanoseconds, for latencies ({@code System::nanoTime} in production) */
    public BrokerMetrics(LongSupplier nanoTime) {
        this.nanoTime = nanoTime;
        for (QuotaType type : QuotaType.values()) {
            throttleTimes.put(type, new Histogram(1, 5, 10, 25, 50, 100, 250, 500, 1_000, 2_500, 5_000, 10_000,
                    30_000, 60_000));
        }
        for (int i = 0; i < produceSteps.length; i++) {
            produceSteps[i] = Histogram.stepNanos();
        }
    }

    /** Counters nobody reads, for services built without an exporter (tests, tools); latencies read as zero. */
    public static BrokerMetrics unobserved() {
        return new BrokerMetrics(() -> 0L);
    }

    @Override
    public long nanoTime() {
        return nanoTime.getAsLong();
    }

    public TopicTraffic topic(String topic) {
        TopicTraffic traffic = topics.get(topic);
        return traffic != null ? traffic : topics.computeIfAbsent(topic, t -> new TopicTraffic());
    }

    /** The topic was deleted: its series go away with it. */
    public void forgetTopic(String topic) {
        topics.remove(topic);
    }

    /** Every topic with traffic, as a live view: iterating it takes no lock. */
    public Map<String, TopicTraffic> topics() {
        return Collections.unmodifiableMap(topics);
    }

    /** @param api the API's name, kept from its first request */
    public RequestStats request(int apiKey, String api) {
        RequestStats stats = requests.get(apiKey);
        if (stats == null) {
            requests.compareAndSet(apiKey, null, new RequestStats(apiKey, api));
            stats = requests.get(apiKey);
        }
        return stats;
    }

    /** Every API requested so far. */
    public List<RequestStats> requests() {
        List<RequestStats> seen = new ArrayList<>();
        for (int key = 0; key < API_KEYS; key++) {
            RequestStats stats = requests.get(key);
            if (stats != null) {
                seen.add(stats);
            }
        }
        return seen;
    }

    @Override
    public void requestCompleted(int apiKey, String api, long nanos, boolean failed) {
        request(apiKey, api).completed(nanos, failed);
    }

    @Override
    public void connectionOpened(String listener) {
        listener(listener).opened();
    }

    @Override
    public void connectionClosed(String listener) {
        listener(listener).closed();
    }

    @Override
    public void connectionLimited(String listener, String limit, boolean closed) {
        listener(listener).limited(limit, closed);
    }

    public ConnectionCount listener(String listener) {
        ConnectionCount count = listeners.get(listener);
        return count != null ? count : listeners.computeIfAbsent(listener, l -> new ConnectionCount());
    }

    public Map<String, ConnectionCount> listeners() {
        return Collections.unmodifiableMap(listeners);
    }

    /** Each group-commit fsync of a partition's segment files, in nanoseconds. */
    public Histogram fsyncNanos() {
        return fsyncNanos;
    }

    /** Each group-commit fsync of the log journal's files ({@code KAAS_LOG_JOURNAL}), in nanoseconds. */
    public Histogram journalFsyncNanos() {
        return journalFsyncNanos;
    }

    /** Each throttle a client earned by exceeding its quota of {@code type}, in milliseconds. */
    public Histogram throttleTime(QuotaType type) {
        return throttleTimes.get(type);
    }

    /** How many appends each group-commit fsync acknowledged. */
    public Histogram groupCommitAppends() {
        return groupCommitAppends;
    }

    /** Bytes of appends each group-commit fsync made durable. */
    public Histogram fsyncBytes() {
        return fsyncBytes;
    }

    /**
     * acks=-1 answers of a partition that fsyncs every append (flush.messages=1), counted when the
     * covering fsync had not completed as the answer was made: the promise says this stays zero.
     */
    public LongAdder acksBeforeSync() {
        return acksBeforeSync;
    }

    /** How often records were decoded or batches rebuilt, and where: the record ports are wrapped by it. */
    public ByteOpacityTripwires tripwires() {
        return tripwires;
    }

    /** How long produced batches spent in {@code step}, in nanoseconds. */
    public Histogram produceStep(ProduceStep step) {
        return produceSteps[step.ordinal()];
    }

    /** The steps between a produce request reaching the log and its answer (produce-to-ack latency, split). */
    public enum ProduceStep {
        /** From the produce use case to the append starting: the partition's append queue (and a transaction's verification). */
        QUEUE,
        /** The append itself: classification, offset assignment and the write. */
        APPEND,
        /** acks=all: from the append to the group-commit fsync covering it. */
        FSYNC_WAIT;

        /** The name exported as the {@code step} label. */
        public String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }
}
