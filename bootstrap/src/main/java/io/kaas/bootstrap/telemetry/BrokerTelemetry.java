package io.kaas.bootstrap.telemetry;

import io.kaas.application.metrics.BrokerMetrics;
import io.kaas.application.metrics.ByteOpacityTripwires;
import io.kaas.application.metrics.ByteOpacityTripwires.Site;
import io.kaas.bootstrap.telemetry.BrokerGauges.PartitionStorage;
import io.kaas.domain.topic.TopicPartition;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;
import io.opentelemetry.api.metrics.Meter;
import io.opentelemetry.api.metrics.ObservableLongMeasurement;
import io.opentelemetry.exporter.otlp.http.metrics.OtlpHttpMetricExporter;
import io.opentelemetry.exporter.otlp.http.metrics.OtlpHttpMetricExporterBuilder;
import io.opentelemetry.exporter.prometheus.PrometheusMetricReader;
import io.opentelemetry.sdk.common.InstrumentationScopeInfo;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.SdkMeterProviderBuilder;
import io.opentelemetry.sdk.metrics.export.PeriodicMetricReader;
import io.opentelemetry.sdk.resources.Resource;
import io.prometheus.metrics.config.EscapingScheme;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.ToLongFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The OpenTelemetry SDK of one broker: instruments reading the broker's {@link BrokerMetrics}
 * snapshots and its gauges, rendered in Prometheus's text format for {@code /metrics} on every
 * request, and pushed over OTLP/HTTP when an endpoint is configured.
 */
public final class BrokerTelemetry implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(BrokerTelemetry.class);
    private static final String SCOPE = "io.kaas.broker";
    static final AttributeKey<String> TOPIC = AttributeKey.stringKey("topic");
    static final AttributeKey<String> LISTENER = AttributeKey.stringKey("listener");
    static final AttributeKey<String> LIMIT = AttributeKey.stringKey("limit");
    static final AttributeKey<String> GROUP = AttributeKey.stringKey("group");
    static final AttributeKey<Long> PARTITION = AttributeKey.longKey("partition");
    static final AttributeKey<String> SITE = AttributeKey.stringKey("site");
    static final AttributeKey<String> LOG_DIR = AttributeKey.stringKey("log_dir");
    static final AttributeKey<String> PATH = AttributeKey.stringKey("path");

    private final SdkMeterProvider provider;
    private final PrometheusMetricReader prometheus;
    private final PrometheusTextFormatWriter text = PrometheusTextFormatWriter.create();

    private BrokerTelemetry(SdkMeterProvider provider, PrometheusMetricReader prometheus) {
        this.provider = provider;
        this.prometheus = prometheus;
    }

    /** @param gauges the broker's state, read at each collection */
    public static BrokerTelemetry start(TelemetrySettings settings, BrokerMetrics metrics, BrokerGauges gauges) {
        AttributesBuilder resource = Attributes.builder();
        settings.resourceAttributes().forEach(resource::put);
        PrometheusMetricReader prometheus = PrometheusMetricReader.builder().setOtelScopeLabelsEnabled(false).build();
        LongSupplier epochNanos = () -> TimeUnit.MILLISECONDS.toNanos(System.currentTimeMillis());
        SdkMeterProviderBuilder builder = SdkMeterProvider.builder()
                .setResource(Resource.getDefault().merge(Resource.create(resource.build())))
                .registerMetricReader(prometheus)
                .registerMetricProducer(new SnapshotHistograms(metrics, InstrumentationScopeInfo.create(SCOPE),
                        epochNanos));
        settings.otlpMetricsEndpoint().ifPresent(endpoint -> {
            OtlpHttpMetricExporterBuilder exporter = OtlpHttpMetricExporter.builder().setEndpoint(endpoint.toString());
            settings.otlpHeaders().forEach(exporter::addHeader);
            builder.registerMetricReader(PeriodicMetricReader.builder(exporter.build())
                    .setInterval(Duration.ofMillis(settings.exportIntervalMs())).build());
            LOG.info("pushing metrics over OTLP/HTTP to {} every {} ms", endpoint, settings.exportIntervalMs());
        });
        SdkMeterProvider provider = builder.build();
        registerInstruments(provider.get(SCOPE), metrics, gauges, settings.partitionGauges());
        return new BrokerTelemetry(provider, prometheus);
    }

    private static void registerInstruments(Meter meter, BrokerMetrics metrics, BrokerGauges gauges,
                                            boolean partitionGauges) {
        meter.counterBuilder("kaas.topic.incoming.bytes").setUnit("By")
                .setDescription("Bytes of record batches appended, as the producers sent them")
                .buildWithCallback(m -> metrics.topics().forEach((topic, t) -> m.record(t.bytesIn(), Attributes.of(TOPIC, topic))));
        meter.counterBuilder("kaas.topic.incoming.records").setUnit("{record}")
                .setDescription("Records appended, from the record count of each batch's header")
                .buildWithCallback(m -> metrics.topics().forEach((topic, t) -> m.record(t.recordsIn(), Attributes.of(TOPIC, topic))));
        meter.counterBuilder("kaas.topic.outgoing.bytes").setUnit("By")
                .setDescription("Bytes of record batches answered to Fetch requests")
                .buildWithCallback(m -> metrics.topics().forEach((topic, t) -> m.record(t.bytesOut(), Attributes.of(TOPIC, topic))));
        meter.counterBuilder("kaas.requests").setUnit("{request}")
                .setDescription("Requests answered, by API")
                .buildWithCallback(m -> metrics.requests().forEach(r -> m.record(r.requests(),
                        Attributes.of(SnapshotHistograms.API, r.api()))));
        meter.counterBuilder("kaas.request.errors").setUnit("{request}")
                .setDescription("Requests whose handler failed, answered with an error as a whole, by API")
                .buildWithCallback(m -> metrics.requests().forEach(r -> m.record(r.errors(),
                        Attributes.of(SnapshotHistograms.API, r.api()))));
        meter.counterBuilder("kaas.produce.acks_before_sync").setUnit("{answer}")
                .setDescription("acks=-1 answers made before the fsync covering their batch completed (flush.messages=1"
                        + " topics): the durability promise says zero")
                .buildWithCallback(m -> m.record(metrics.acksBeforeSync().sum()));
        ByteOpacityTripwires tripwires = metrics.tripwires();
        meter.counterBuilder("kaas.codec.record_decode").setUnit("{call}")
                .setDescription("Calls that decoded records, by the site that did (the book's byte-opacity tripwire:"
                        + " Produce and Fetch never do)")
                .buildWithCallback(m -> {
                    for (Site site : Site.values()) {
                        m.record(tripwires.recordDecodes(site), Attributes.of(SITE, site.label()));
                    }
                });
        meter.counterBuilder("kaas.codec.batch_reencode").setUnit("{call}")
                .setDescription("Calls that may have rebuilt record batches, by the site that did (the book's"
                        + " byte-opacity tripwire: only the log cleaner's rewrite does)")
                .buildWithCallback(m -> {
                    for (Site site : Site.values()) {
                        m.record(tripwires.batchReencodes(site), Attributes.of(SITE, site.label()));
                    }
                });
        meter.upDownCounterBuilder("kaas.connections").setUnit("{connection}")
                .setDescription("Client connections open, by listener")
                .buildWithCallback(m -> metrics.listeners().forEach((name, c) -> m.record(c.open(),
                        Attributes.of(LISTENER, name))));
        meter.counterBuilder("kaas.connections.accepted").setUnit("{connection}")
                .setDescription("Client connections accepted since start, by listener")
                .buildWithCallback(m -> metrics.listeners().forEach((name, c) -> m.record(c.accepted(),
                        Attributes.of(LISTENER, name))));
        meter.counterBuilder("kaas.connections.refused").setUnit("{connection}")
                .setDescription("Connections closed unserved at accept by a connection limit (max.connections.per.ip,"
                        + " an IP's connection_creation_rate), by listener and limit")
                .buildWithCallback(m -> metrics.listeners().forEach((name, c) -> c.refused().forEach((limit, n) ->
                        m.record(n.sum(), Attributes.of(LISTENER, name, LIMIT, limit)))));
        meter.counterBuilder("kaas.connections.held").setUnit("{connection}")
                .setDescription("Connections a listener held back, not accepting meanwhile, until a connection limit"
                        + " allowed them (max.connections, max.connection.creation.rate), by listener and limit")
                .buildWithCallback(m -> metrics.listeners().forEach((name, c) -> c.held().forEach((limit, n) ->
                        m.record(n.sum(), Attributes.of(LISTENER, name, LIMIT, limit)))));
        meter.gaugeBuilder("kaas.partitions.led").ofLongs().setUnit("{partition}")
                .setDescription("Partitions this broker leads (has open for writing)")
                .buildWithCallback(m -> m.record(gauges.partitions().led()));
        meter.gaugeBuilder("kaas.partitions.stalled").ofLongs().setUnit("{partition}")
                .setDescription("Partitions led here whose storage stalled (a failed or too slow fsync): appends fail")
                .buildWithCallback(m -> m.record(gauges.partitions().stalled()));
        meter.gaugeBuilder("kaas.consumer_group.lag").ofLongs().setUnit("{record}")
                .setDescription("High watermark minus the group's committed offset, per partition with a commit")
                .buildWithCallback(m -> gauges.lag().forEach(l -> m.record(l.lag(), Attributes.of(GROUP, l.group(),
                        TOPIC, l.partition().topic(), PARTITION, (long) l.partition().partition()))));
        registerStateGauges(meter, gauges, partitionGauges);
        JvmMemoryGauges.register(meter);
    }

    /**
     * Storage per partition (or per topic, {@code partitionGauges} false), groups, transactions and the controller,
     * as the broker sees them when collected.
     */
    private static void registerStateGauges(Meter meter, BrokerGauges gauges, boolean partitionGauges) {
        String of = partitionGauges ? "a partition" : "a topic's partitions";
        meter.gaugeBuilder("kaas.log.size").ofLongs().setUnit("By")
                .setDescription("Bytes of log " + of + " led here holds: its segments' sizes, as DescribeLogDirs reports")
                .buildWithCallback(m -> storage(gauges, partitionGauges, PartitionStorage::bytes, m));
        meter.gaugeBuilder("kaas.log.segments").ofLongs().setUnit("{segment}")
                .setDescription("Segments of " + of + " led here, the active one included")
                .buildWithCallback(m -> storage(gauges, partitionGauges, PartitionStorage::segments, m));
        meter.counterBuilder("kaas.consumer_group.rebalances").setUnit("{rebalance}")
                .setDescription("Rebalances begun per group coordinated here, since this broker loaded the group")
                .buildWithCallback(m -> gauges.rebalances().forEach((group, count) -> m.record(count,
                        Attributes.of(GROUP, group))));
        meter.gaugeBuilder("kaas.transactions.active").ofLongs().setUnit("{transaction}")
                .setDescription("Transactions in progress (Ongoing or prepared) among those coordinated here")
                .buildWithCallback(m -> m.record(gauges.transactions().active()));
        meter.gaugeBuilder("kaas.transactions.oldest.age").setUnit("s")
                .setDescription("How long ago the oldest transaction in progress here began; 0 when there is none")
                .buildWithCallback(m -> m.record(gauges.transactions().oldestAgeMs() / 1000.0));
        meter.gaugeBuilder("kaas.log.dir.total.bytes").ofLongs().setUnit("By")
                .setDescription("Size of each log dir's volume (the volume pool's members), as DescribeLogDirs v4"
                        + " reports it; measured every 10 s")
                .buildWithCallback(m -> gauges.logDirs().forEach(d -> m.record(d.totalBytes(), logDir(d))));
        meter.gaugeBuilder("kaas.log.dir.usable.bytes").ofLongs().setUnit("By")
                .setDescription("Space left for new data on each log dir's volume; measured every 10 s")
                .buildWithCallback(m -> gauges.logDirs().forEach(d -> m.record(d.usableBytes(), logDir(d))));
        meter.gaugeBuilder("kaas.controller.present").ofLongs()
                .setDescription("1 when this broker sees a controller (a live holder of the controller Lease), else 0")
                .buildWithCallback(m -> m.record(gauges.controllerPresent() ? 1 : 0));
    }

    private static Attributes logDir(BrokerGauges.LogDirSpace dir) {
        return Attributes.of(LOG_DIR, dir.name(), PATH, dir.path());
    }

    /** A storage gauge's values: one per partition led here, or their sums per topic. */
    private static void storage(BrokerGauges gauges, boolean perPartition, ToLongFunction<PartitionStorage> value,
                                ObservableLongMeasurement m) {
        if (perPartition) {
            gauges.storage().forEach(p -> m.record(value.applyAsLong(p), partition(p.partition())));
            return;
        }
        Map<String, Long> byTopic = new HashMap<>();
        gauges.storage().forEach(p -> byTopic.merge(p.partition().topic(), value.applyAsLong(p), Long::sum));
        byTopic.forEach((topic, sum) -> m.record(sum, Attributes.of(TOPIC, topic)));
    }

    private static Attributes partition(TopicPartition partition) {
        return Attributes.of(TOPIC, partition.topic(), PARTITION, (long) partition.partition());
    }

    /** Every metric now, in Prometheus's text exposition format (version 0.0.4). */
    public byte[] prometheusText() {
        ByteArrayOutputStream out = new ByteArrayOutputStream(16 * 1024);
        try {
            text.write(out, prometheus.collect(), EscapingScheme.UNDERSCORE_ESCAPING);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a byte array does not fail
        }
        return out.toByteArray();
    }

    /** The content type of {@link #prometheusText()}. */
    public static String prometheusContentType() {
        return PrometheusTextFormatWriter.CONTENT_TYPE;
    }

    /** Pushes what is pending (when OTLP is on), then stops. */
    @Override
    public void close() {
        provider.shutdown().join(5, TimeUnit.SECONDS);
    }
}
