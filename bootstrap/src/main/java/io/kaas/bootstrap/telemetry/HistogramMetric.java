package io.kaas.bootstrap.telemetry;

import io.opentelemetry.sdk.common.InstrumentationScopeInfo;
import io.opentelemetry.sdk.metrics.data.Data;
import io.opentelemetry.sdk.metrics.data.HistogramData;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.metrics.data.MetricDataType;
import io.opentelemetry.sdk.resources.Resource;

/** One cumulative explicit-bucket histogram, as the SDK's readers and exporters take it. */
record HistogramMetric(Resource resource, InstrumentationScopeInfo scope, String name, String description, String unit,
                       HistogramData histogram) implements MetricData {

    @Override
    public Resource getResource() {
        return resource;
    }

    @Override
    public InstrumentationScopeInfo getInstrumentationScopeInfo() {
        return scope;
    }

    @Override
    public String getName() {
        return name;
    }

    @Override
    public String getDescription() {
        return description;
    }

    @Override
    public String getUnit() {
        return unit;
    }

    @Override
    public MetricDataType getType() {
        return MetricDataType.HISTOGRAM;
    }

    @Override
    public Data<?> getData() {
        return histogram;
    }
}
