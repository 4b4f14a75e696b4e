package io.kaas.bootstrap.telemetry;

import io.kaas.application.metrics.ConsumerLag.PartitionLag;
import java.util.List;
import java.util.Map;

/** Gauges that read what a test gave them. */
record FixedGauges(PartitionCounts partitions, List<PartitionLag> lag, List<PartitionStorage> storage,
                   Map<String, Long> rebalances, Transactions transactions, List<LogDirSpace> logDirs,
                   boolean controllerPresent) implements BrokerGauges {

    /** Partitions led and stalled, lag; no storage, groups or transactions; a controller present. */
    static FixedGauges of(long led, long stalled, List<PartitionLag> lag) {
        return new FixedGauges(new PartitionCounts(led, stalled), lag, List.of(), Map.of(), new Transactions(0, 0), List.of(),
                true);
    }
}
