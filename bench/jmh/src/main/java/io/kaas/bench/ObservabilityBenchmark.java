package io.kaas.bench;

import io.kaas.bench.InstrumentedBroker.Instrumentation;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.MemoryRecords;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.FetchMetadata;
import org.apache.kafka.common.requests.FetchRequest;
import org.apache.kafka.common.requests.ProduceRequest;
import org.apache.kafka.common.requests.RequestHeader;
import org.apache.kafka.common.requests.ResponseHeader;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What metrics and tracing cost a request (issue 16's overhead budget: 2 %): one Produce (acks=-1, 6
 * partitions, one ~16 KiB batch each) or one Fetch (the same 6 partitions, one batch each) through the
 * listener's pipeline, the handlers, the services and the log ({@link InstrumentedBroker}).
 *
 * <p>Two brokers in one fork, measured in turns: one with instrumentation {@code off} (no clock reads, no
 * tracer) and one {@code metrics} as shipped without an OTLP endpoint (clock reads and histograms, the SDK reading
 * them), {@code on} as shipped with an OTLP endpoint (metrics recorded, the SDK, 1 % of requests
 * traced, spans batched and serialized to OTLP bytes on the broker's export thread), or {@code traced} (every
 * request traced: what a sampled request costs). Each invocation sends a block of requests to one broker, then
 * the same to the other (alternating which goes first), timing each block on the thread's CPU clock: a machine
 * other processes load changes both alike, so the ratio holds where wall-clock times of separate runs swing by
 * tens of percent. The CPU time of the span export (another thread) is counted by the exporter and printed per
 * trial. JMH's own score (wall time per block pair) is not the result: the aux counters are.
 */
@Fork(value = 3, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 8, time = 2)
public class ObservabilityBenchmark extends BenchmarkDefaults {
    private static final int PARTITIONS = 6;
    /** 16 records of 1 KiB: a ~16.5 KiB batch, as a producer with batch.size=16384 sends them. */
    private static final int RECORDS_PER_BATCH = 16;
    private static final int VALUE_BYTES = 1024;
    /** Batches per partition written before a trial, and fetch frames cycled through. */
    private static final int PREFILLED = 256;
    /** Requests per timed block: long enough that reading the CPU clock is noise, short enough to interleave finely. */
    private static final int BLOCK = 64;
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    @Param({"metrics", "on", "traced"})
    String instrumentation;

    @Param({"memory", "tmpfs"})
    String storage;

    private Side off;
    private Side on;
    private boolean offFirst;

    /** The CPU time of each side per request, this iteration. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.EVENTS)
    public static class Cpu {
        long offNanos;
        long onNanos;
        long requests;
        /** Thread CPU ns per request, instrumentation off. */
        public double offNs;
        /** Thread CPU ns per request, instrumentation on (or traced). */
        public double onNs;
        /** on / off. */
        public double ratio;

        @Setup(Level.Iteration)
        public void reset() {
            offNanos = 0;
            onNanos = 0;
            requests = 0;
        }

        @TearDown(Level.Iteration)
        public void report() {
            offNs = (double) offNanos / Math.max(requests, 1);
            onNs = (double) onNanos / Math.max(requests, 1);
            ratio = (double) onNanos / Math.max(offNanos, 1);
        }
    }

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        off = new Side(Instrumentation.OFF, storage.equals("tmpfs"));
        on = new Side(Instrumentation.valueOf(instrumentation.toUpperCase(Locale.ROOT)), storage.equals("tmpfs"));
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        OtlpBytesExporter exporter = on.broker.exporter();
        long requests = on.broker.requests();
        off.close();
        on.close(); // the tracer's close exports what is queued
        System.out.printf("%nexported %d spans in %d bytes for %d requests (%.3f spans, %.0f bytes per request);"
                        + " export thread CPU %.0f ns per span, %.0f ns per request%n", exporter.spans(),
                exporter.bytes(), requests, (double) exporter.spans() / requests,
                (double) exporter.bytes() / requests, (double) exporter.cpuNanos() / Math.max(exporter.spans(), 1),
                (double) exporter.cpuNanos() / requests);
    }

    /** A block of acks=-1 Produces of a batch to each of 6 partitions, answered once the batches are durable. */
    @Benchmark
    public long produce(Cpu cpu) {
        offFirst = !offFirst;
        if (offFirst) {
            cpu.offNanos += off.timed(Side::produce);
            cpu.onNanos += on.timed(Side::produce);
        } else {
            cpu.onNanos += on.timed(Side::produce);
            cpu.offNanos += off.timed(Side::produce);
        }
        cpu.requests += BLOCK;
        return off.produced;
    }

    /** A block of Fetches of a batch from each of the 6 partitions, at moving offsets. */
    @Benchmark
    public long fetch(Cpu cpu) {
        offFirst = !offFirst;
        if (offFirst) {
            cpu.offNanos += off.timed(Side::fetch);
            cpu.onNanos += on.timed(Side::fetch);
        } else {
            cpu.onNanos += on.timed(Side::fetch);
            cpu.offNanos += off.timed(Side::fetch);
        }
        cpu.requests += BLOCK;
        return off.produced;
    }

    /** One broker with its request frames. */
    private static final class Side {
        final InstrumentedBroker broker;
        final ByteBuf produce;
        final ByteBuf[] fetches = new ByteBuf[PREFILLED];
        int nextFetch;
        long produced;

        Side(Instrumentation instrumentation, boolean tmpfs) throws IOException {
            broker = new InstrumentedBroker(instrumentation, tmpfs, PARTITIONS);
            produce = frame(produceRequest(), 1);
            checkProduced(broker.firstResponse(produce));
            for (int i = 1; i < PREFILLED; i++) {
                broker.roundTrip(produce);
            }
            for (int i = 0; i < PREFILLED; i++) {
                fetches[i] = frame(fetchRequest(broker, (long) i * RECORDS_PER_BATCH), 2);
            }
            long fetched = broker.roundTrip(fetches[PREFILLED / 2]);
            if (fetched < (long) PARTITIONS * RECORDS_PER_BATCH * VALUE_BYTES) {
                throw new IllegalStateException("a fetch answered " + fetched + " bytes: not a batch per partition");
            }
        }

        /** The thread's CPU nanoseconds for a block of {@code request}. */
        long timed(java.util.function.ToLongFunction<Side> request) {
            long started = THREADS.getCurrentThreadCpuTime();
            for (int i = 0; i < BLOCK; i++) {
                request.applyAsLong(this);
            }
            return THREADS.getCurrentThreadCpuTime() - started;
        }

        long produce() {
            if (++produced % 64 == 0) {
                broker.applyRetention(); // the topic's retention.bytes: the log stays small however long the run
            }
            return broker.roundTrip(produce);
        }

        long fetch() {
            nextFetch = (nextFetch + 1) % fetches.length;
            return broker.roundTrip(fetches[nextFetch]);
        }

        void close() throws IOException {
            broker.close();
            produce.release();
            for (ByteBuf fetch : fetches) {
                fetch.release();
            }
        }
    }

    private static ProduceRequest produceRequest() {
        ProduceRequestData.TopicProduceData topic = new ProduceRequestData.TopicProduceData()
                .setName(InstrumentedBroker.TOPIC);
        for (int p = 0; p < PARTITIONS; p++) {
            topic.partitionData().add(new ProduceRequestData.PartitionProduceData().setIndex(p)
                    .setRecords(MemoryRecords.readableRecords(Batches.plain(RECORDS_PER_BATCH, VALUE_BYTES))));
        }
        ProduceRequestData data = new ProduceRequestData().setAcks((short) -1).setTimeoutMs(30_000);
        data.topicData().add(topic);
        return ProduceRequest.forMagic((byte) 2, data).build((short) 9);
    }

    /** A session-less consumer fetch (v15, topic ids) of one batch per partition (two do not fit in 32 KiB). */
    private static FetchRequest fetchRequest(InstrumentedBroker broker, long offset) {
        Uuid id = new Uuid(broker.topic().id().getMostSignificantBits(), broker.topic().id().getLeastSignificantBits());
        Map<TopicPartition, FetchRequest.PartitionData> partitions = new LinkedHashMap<>();
        for (int p = 0; p < PARTITIONS; p++) {
            partitions.put(new TopicPartition(InstrumentedBroker.TOPIC, p),
                    new FetchRequest.PartitionData(id, offset, 0L, 32 * 1024, Optional.of(0)));
        }
        return FetchRequest.Builder.forConsumer((short) 15, 500, 1, partitions).metadata(FetchMetadata.LEGACY)
                .setMaxBytes(50 << 20).build((short) 15);
    }

    private static ByteBuf frame(AbstractRequest request, int correlationId) {
        ByteBuffer body = request.serializeWithHeader(
                new RequestHeader(request.apiKey(), request.version(), "bench-client", correlationId));
        ByteBuf frame = Unpooled.directBuffer(Integer.BYTES + body.remaining());
        return frame.writeInt(body.remaining()).writeBytes(body);
    }

    private static void checkProduced(ByteBuf response) {
        try {
            ByteBuffer bytes = response.nioBuffer();
            bytes.getInt(); // the size
            short version = 9;
            ResponseHeader.parse(bytes, ApiKeys.PRODUCE.responseHeaderVersion(version));
            AbstractResponse parsed = AbstractResponse.parseResponse(ApiKeys.PRODUCE, bytes, version);
            if (!parsed.errorCounts().keySet().stream().allMatch(e -> e == Errors.NONE)) {
                throw new IllegalStateException("the produce failed: " + parsed.errorCounts());
            }
        } finally {
            response.release();
        }
    }
}
