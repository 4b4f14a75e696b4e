package io.kaas.bench;

import io.kaas.adapter.fs.DataLayout;
import io.kaas.adapter.fs.JacksonCodec;
import io.kaas.adapter.fs.JsonFiles;
import io.kaas.adapter.fs.JsonTopicStore;
import io.kaas.adapter.fs.MemoryFilesystem;
import io.kaas.adapter.fs.NioFilesystem;
import io.kaas.adapter.wire.KafkaApis;
import io.kaas.adapter.wire.UseCases;
import io.kaas.adapter.wire.WireSettings;
import io.kaas.adapter.wire.codec.KafkaFrameDecoder;
import io.kaas.adapter.wire.dispatch.ConnectionLimits;
import io.kaas.adapter.wire.dispatch.KafkaApiDispatcher;
import io.kaas.application.cluster.BrokerSettings;
import io.kaas.application.cluster.WriteFence;
import io.kaas.application.fetch.FetchPurgatory;
import io.kaas.application.fetch.FetchService;
import io.kaas.application.fetch.FetchSessions;
import io.kaas.application.log.DiskLogEngine;
import io.kaas.application.log.LogEngine;
import io.kaas.application.log.MemoryLogEngine;
import io.kaas.application.log.PartitionLog;
import io.kaas.application.metrics.BrokerMetrics;
import io.kaas.application.port.in.QuotaEnforcement;
import io.kaas.application.port.in.TopicAdminUseCase;
import io.kaas.application.port.in.Tracer;
import io.kaas.application.port.in.TrafficMetrics;
import io.kaas.application.port.out.Clock;
import io.kaas.application.port.out.Scheduler;
import io.kaas.application.produce.ProduceService;
import io.kaas.application.topic.TopicService;
import io.kaas.bootstrap.telemetry.BrokerGauges;
import io.kaas.bootstrap.telemetry.BrokerTelemetry;
import io.kaas.bootstrap.telemetry.BrokerTracing;
import io.kaas.bootstrap.telemetry.TelemetrySettings;
import io.kaas.domain.config.BrokerConfigs;
import io.kaas.domain.config.ConfigType;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.fetch.FetchSessionCache;
import io.kaas.domain.topic.Topic;
import io.netty.buffer.ByteBuf;
import io.netty.channel.FileRegion;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.ReferenceCountUtil;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A broker's request path in one thread: the listener's pipeline (frame decoder, dispatcher) on a Netty
 * {@link EmbeddedChannel}, the real Produce and Fetch handlers and services over a memory log or a disk log
 * on tmpfs (its fsyncs are real calls that cost next to nothing, so they are not the noise), I/O run
 * inline. Instrumented as {@code KaasBroker} wires it, or not at all.
 */
final class InstrumentedBroker implements AutoCloseable {
    /** What the broker records and traces. */
    enum Instrumentation {
        /** No clock reads, no span: {@link TrafficMetrics#NONE}, {@link BrokerMetrics#unobserved()}, {@link Tracer#NONE}. */
        OFF,
        /** As shipped without an OTLP endpoint: the metrics (clock reads, histograms) and the SDK reading them; no tracer. */
        METRICS,
        /** As shipped with an OTLP endpoint: the metrics, the SDK, the default share of requests traced (1 %). */
        ON,
        /** As {@link #ON}, every request traced: the cost of a sampled request. */
        TRACED
    }

    static final String TOPIC = "bench";
    private static final int TOPIC_RETENTION_BYTES = 32 << 20;

    private final Clock clock = System::currentTimeMillis;
    private final ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor(task -> {
        Thread thread = new Thread(task, "bench-scheduler");
        thread.setDaemon(true);
        return thread;
    });
    private final Path dir;
    private final LogEngine engine;
    private final TopicService topics;
    private final BrokerTelemetry telemetry;
    private final BrokerTracing tracing;
    private final OtlpBytesExporter exporter = new OtlpBytesExporter();
    private final EmbeddedChannel channel = new EmbeddedChannel();
    private final Topic topic;
    private long requests;

    InstrumentedBroker(Instrumentation instrumentation, boolean tmpfs, int partitions) throws IOException {
        Scheduler scheduler = (task, delayMs) -> {
            var future = timers.schedule(task, Math.max(delayMs, 0), TimeUnit.MILLISECONDS);
            return () -> future.cancel(false);
        };
        boolean on = instrumentation != Instrumentation.OFF;
        BrokerMetrics metrics = on ? new BrokerMetrics(System::nanoTime) : BrokerMetrics.unobserved();
        FetchPurgatory purgatory = new FetchPurgatory();
        if (tmpfs) {
            dir = Files.createTempDirectory(Path.of("/dev/shm"), "kaas-obs-bench");
            engine = new DiskLogEngine(new DiskLogEngine.Settings(dir, 0, 30_000,
                    DiskLogEngine.DEFAULT_CHECKPOINT_INTERVAL_BYTES, false, metrics), new NioFilesystem(),
                    new JacksonCodec(), Runnable::run, scheduler, clock, purgatory);
        } else {
            dir = null;
            engine = new MemoryLogEngine(purgatory);
        }
        BrokerConfigs brokerConfigs = BrokerConfigs.of(List.of(BrokerConfigs.Entry.ofDefault(
                "log.flush.interval.messages", "1", ConfigType.LONG, "kaas's default: acks=-1 waits for the fsync")));
        // The topic file in memory, as KAAS_STORAGE=memory keeps it: only the logs are measured.
        JsonTopicStore store = new JsonTopicStore(new DataLayout(Path.of("/kaas")),
                new JsonFiles(new MemoryFilesystem(System::currentTimeMillis), new JacksonCodec()));
        topics = new TopicService(store, engine, new BrokerSettings(1, partitions, false, 1000),
                brokerConfigs, UUID::randomUUID);
        topics.start();
        TopicAdminUseCase.CreateResult created = topics.create(new TopicAdminUseCase.CreateCommand(TOPIC, partitions,
                1, Map.of(), Map.of("retention.bytes", Integer.toString(TOPIC_RETENTION_BYTES),
                "segment.bytes", Integer.toString(8 << 20), "file.delete.delay.ms", "0"), false));
        if (created.error() != KafkaError.NONE) {
            throw new IllegalStateException("topic not created: " + created.message());
        }
        topic = created.topic();
        UseCases useCases = new UseCases(
                new ProduceService(topics, clock, scheduler, null, WriteFence.OPEN, metrics),
                new FetchService(topics, purgatory, scheduler, Runnable::run, metrics,
                        new FetchSessions(FetchSessionCache.DEFAULT_SLOTS, FetchSessionCache.DEFAULT_EVICTION_MS, clock,
                                () -> ThreadLocalRandom.current().nextInt())),
                null, null, null, null, null, null, null, null, null, null, null, null, null, null, null,
                QuotaEnforcement.NONE);
        Tracer tracer = Tracer.NONE;
        if (instrumentation == Instrumentation.METRICS) {
            tracing = null;
            telemetry = BrokerTelemetry.start(TelemetrySettings.fromEnvironment(Map.of(), 1), metrics,
                    new TopicGauges(topics));
        } else if (on) {
            Map<String, String> env = new HashMap<>();
            env.put("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "http://127.0.0.1:4318/v1/traces");
            if (instrumentation == Instrumentation.TRACED) {
                env.put("OTEL_TRACES_SAMPLER", "always_on");
            }
            // another ratio than the default for ON: -jvmArgsAppend -Dkaas.bench.sampler.arg=0.1
            String ratio = System.getProperty("kaas.bench.sampler.arg");
            if (ratio != null) {
                env.put("OTEL_TRACES_SAMPLER_ARG", ratio);
            }
            TelemetrySettings settings = TelemetrySettings.fromEnvironment(env, 1);
            tracing = BrokerTracing.exportingTo(exporter, settings);
            tracer = tracing;
            telemetry = BrokerTelemetry.start(settings, metrics, new TopicGauges(topics));
        } else {
            tracing = null;
            telemetry = null;
        }
        channel.pipeline().addLast("frames", new KafkaFrameDecoder(WireSettings.DEFAULT_MAX_FRAME_BYTES));
        channel.pipeline().addLast("apis", new KafkaApiDispatcher(KafkaApis.registry(useCases), ConnectionLimits.DEFAULT,
                Runnable::run, null, WireSettings.DEFAULT_MAX_FRAME_BYTES, on ? metrics : TrafficMetrics.NONE, tracer));
    }

    Topic topic() {
        return topic;
    }

    /**
     * Sends one request frame (a duplicate of {@code frame}, which stays the caller's) and takes what the
     * broker wrote back; answers the bytes of the response (a fetch's records count, file regions too).
     */
    long roundTrip(ByteBuf frame) {
        requests++;
        channel.writeInbound(frame.retainedDuplicate());
        channel.runPendingTasks();
        long bytes = 0;
        for (Object out = channel.readOutbound(); out != null; out = channel.readOutbound()) {
            bytes += out instanceof ByteBuf buf ? buf.readableBytes() : ((FileRegion) out).count();
            ReferenceCountUtil.release(out);
        }
        return bytes;
    }

    /** The first response frame to {@code frame}, kept for the caller to check and release. */
    ByteBuf firstResponse(ByteBuf frame) {
        requests++;
        channel.writeInbound(frame.retainedDuplicate());
        channel.runPendingTasks();
        ByteBuf response = channel.readOutbound();
        for (Object out = channel.readOutbound(); out != null; out = channel.readOutbound()) {
            ReferenceCountUtil.release(out);
        }
        return response;
    }

    /** What the retention sweep does: the topic stays within its retention.bytes however long the run. */
    void applyRetention() {
        long now = clock.nowMs();
        for (PartitionLog log : topics.logs()) {
            log.applyRetention(now);
        }
    }

    /** The /metrics page as a scrape renders it; empty with instrumentation off. */
    byte[] scrape() {
        return telemetry == null ? new byte[0] : telemetry.prometheusText();
    }

    /** Requests sent so far. */
    long requests() {
        return requests;
    }

    OtlpBytesExporter exporter() {
        return exporter;
    }

    @Override
    public void close() throws IOException {
        channel.finishAndReleaseAll();
        if (tracing != null) {
            tracing.close();
        }
        if (telemetry != null) {
            telemetry.close();
        }
        engine.close();
        timers.shutdownNow();
        if (dir != null) {
            try (Stream<Path> files = Files.walk(dir)) {
                for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    /** The topic's storage gauges, as a broker's collection reads them; no groups, transactions or log dirs. */
    private record TopicGauges(TopicService topics) implements BrokerGauges {
        @Override
        public PartitionCounts partitions() {
            return new PartitionCounts(topics.logs().size(), 0);
        }

        @Override
        public List<io.kaas.application.metrics.ConsumerLag.PartitionLag> lag() {
            return List.of();
        }

        @Override
        public List<PartitionStorage> storage() {
            List<PartitionStorage> storage = new ArrayList<>();
            for (PartitionLog log : topics.logs()) {
                storage.add(new PartitionStorage(log.topicPartition(), log.sizeInBytes(), log.segmentCount()));
            }
            return storage;
        }

        @Override
        public Map<String, Long> rebalances() {
            return Map.of();
        }

        @Override
        public Transactions transactions() {
            return new Transactions(0, 0);
        }

        @Override
        public List<LogDirSpace> logDirs() {
            return List.of();
        }

        @Override
        public boolean controllerPresent() {
            return true;
        }
    }
}
