package io.kaas.bootstrap.telemetry;

import io.kaas.application.metrics.BrokerMetrics;
import io.kaas.application.metrics.Histogram;
import io.kaas.application.metrics.RequestStats;
import io.kaas.domain.quota.QuotaType;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.sdk.common.InstrumentationScopeInfo;
import io.opentelemetry.sdk.metrics.data.AggregationTemporality;
import io.opentelemetry.sdk.metrics.data.HistogramData;
import io.opentelemetry.sdk.metrics.data.HistogramPointData;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.metrics.export.MetricProducer;
import io.opentelemetry.sdk.resources.Resource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * The broker's histograms, handed to every reader at collection. They are recorded by the broker
 * into lock-free {@link Histogram}s (an SDK histogram takes a lock per record, which the event
 * loops must not), so they enter the SDK as cumulative data rather than through instruments.
 */
final class SnapshotHistograms implements MetricProducer {
    static final AttributeKey<String> API = AttributeKey.stringKey("api");
    static final AttributeKey<String> QUOTA_TYPE = AttributeKey.stringKey("quota_type");
    static final AttributeKey<String> STEP = AttributeKey.stringKey("step");
    static final AttributeKey<String> LOG = AttributeKey.stringKey("log");
    private static final double NANOS_PER_SECOND = 1e9;
    private static final double MILLIS_PER_SECOND = 1e3;

    private final BrokerMetrics metrics;
    private final InstrumentationScopeInfo scope;
    private final LongSupplier epochNanos;
    private final long startEpochNanos;

    SnapshotHistograms(BrokerMetrics metrics, InstrumentationScopeInfo scope, LongSupplier epochNanos) {
        this.metrics = metrics;
        this.scope = scope;
        this.epochNanos = epochNanos;
        this.startEpochNanos = epochNanos.getAsLong();
    }

    @Override
    public Collection<MetricData> produce(Resource resource) {
        long now = epochNanos.getAsLong();
        List<MetricData> out = new ArrayList<>(6);
        List<HistogramPointData> requests = new ArrayList<>();
        for (RequestStats stats : metrics.requests()) {
            requests.add(point(stats.latencyNanos().snapshot(), NANOS_PER_SECOND, now, Attributes.of(API, stats.api())));
        }
        if (!requests.isEmpty()) {
            out.add(metric(resource, "kaas.request.duration", "From a request's dispatch to its handler's answer", "s",
                    requests));
        }
        List<HistogramPointData> throttles = new ArrayList<>();
        for (QuotaType type : QuotaType.values()) {
            throttles.add(point(metrics.throttleTime(type).snapshot(), MILLIS_PER_SECOND, now,
                    Attributes.of(QUOTA_TYPE, type.name().toLowerCase(Locale.ROOT))));
        }
        out.add(metric(resource, "kaas.throttle.time", "Each throttle a client earned by exceeding a quota", "s",
                throttles));
        out.add(metric(resource, "kaas.log.fsync.duration", "Each group-commit fsync: of a partition's segment files"
                + " (log=segments) or of the log journal (log=journal)", "s", List.of(
                point(metrics.fsyncNanos().snapshot(), NANOS_PER_SECOND, now, Attributes.of(LOG, "segments")),
                point(metrics.journalFsyncNanos().snapshot(), NANOS_PER_SECOND, now, Attributes.of(LOG, "journal")))));
        out.add(metric(resource, "kaas.log.group_commit.appends", "Appends acknowledged by one group-commit fsync",
                "{append}", List.of(point(metrics.groupCommitAppends().snapshot(), 1, now, Attributes.empty()))));
        out.add(metric(resource, "kaas.log.fsync.bytes", "Bytes of appends one group-commit fsync made durable", "By",
                List.of(point(metrics.fsyncBytes().snapshot(), 1, now, Attributes.empty()))));
        List<HistogramPointData> steps = new ArrayList<>();
        for (BrokerMetrics.ProduceStep step : BrokerMetrics.ProduceStep.values()) {
            steps.add(point(metrics.produceStep(step).snapshot(), NANOS_PER_SECOND, now, Attributes.of(STEP, step.label())));
        }
        out.add(metric(resource, "kaas.produce.step.duration", "A produced batch's time in each step to its "
                + "acknowledgement: queue (waiting for its append), append, fsync_wait (acks=all)", "s", steps));
        return out;
    }

    private MetricData metric(Resource resource, String name, String description, String unit,
                              List<HistogramPointData> points) {
        return new HistogramMetric(resource, scope, name, description, unit,
                HistogramData.create(AggregationTemporality.CUMULATIVE, points));
    }

    /** @param divisor from the recorded unit to the exported one (nanoseconds to seconds) */
    private HistogramPointData point(Histogram.Snapshot s, double divisor, long now, Attributes attributes) {
        List<Double> bounds = new ArrayList<>(s.bounds().length);
        for (long bound : s.bounds()) {
            bounds.add(bound / divisor);
        }
        List<Long> counts = new ArrayList<>(s.counts().length);
        for (long count : s.counts()) {
            counts.add(count);
        }
        return HistogramPointData.create(startEpochNanos, now, attributes, s.sum() / divisor, false, 0, false, 0,
                bounds, counts);
    }
}
