/**
 * What the broker counts about itself, recorded on the hot paths without locks or per-record
 * allocation ({@link java.util.concurrent.atomic.LongAdder}s and fixed-bucket histograms) and read
 * as snapshots by whoever exports them (bootstrap's OpenTelemetry wiring). Gauges that need the
 * broker's state (partitions led, consumer lag) are computed by the reader, when it collects.
 */
package io.kaas.application.metrics;
