package io.kaas.bootstrap;

import io.kaas.application.group.GroupCoordinatorService;
import io.kaas.application.log.PartitionLog;
import io.kaas.application.metrics.ConsumerLag;
import io.kaas.application.port.out.Clock;
import io.kaas.application.topic.TopicService;
import io.kaas.application.txn.TransactionCoordinatorService;
import io.kaas.bootstrap.cluster.ClusterRuntime;
import io.kaas.bootstrap.telemetry.BrokerGauges;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The gauges of a running broker, read from its services' lock-free views when the metrics are collected. */
final class LiveGauges implements BrokerGauges {
    private final TopicService topics;
    private final ConsumerLag lag;
    private final GroupCoordinatorService groups;
    private final TransactionCoordinatorService transactions;
    private final Optional<ClusterRuntime> cluster;
    private final LogDirSpaces logDirs;
    private final Clock clock;

    /** @param cluster absent standalone, where the broker is its own controller */
    LiveGauges(TopicService topics, ConsumerLag lag, GroupCoordinatorService groups,
               TransactionCoordinatorService transactions, Optional<ClusterRuntime> cluster, LogDirSpaces logDirs,
               Clock clock) {
        this.topics = topics;
        this.lag = lag;
        this.groups = groups;
        this.transactions = transactions;
        this.cluster = cluster;
        this.logDirs = logDirs;
        this.clock = clock;
    }

    @Override
    public PartitionCounts partitions() {
        Collection<PartitionLog> led = topics.logs();
        return new PartitionCounts(led.size(), led.stream().filter(PartitionLog::stalled).count());
    }

    @Override
    public List<ConsumerLag.PartitionLag> lag() {
        return lag.current();
    }

    @Override
    public List<PartitionStorage> storage() {
        Collection<PartitionLog> led = topics.logs();
        List<PartitionStorage> storage = new ArrayList<>(led.size());
        for (PartitionLog log : led) {
            storage.add(new PartitionStorage(log.topicPartition(), log.sizeInBytes(), log.segmentCount()));
        }
        return storage;
    }

    @Override
    public Map<String, Long> rebalances() {
        return groups.rebalanceCounts();
    }

    @Override
    public Transactions transactions() {
        TransactionCoordinatorService.ActiveTransactions active = transactions.active();
        return new Transactions(active.count(),
                active.oldestStartMs() < 0 ? 0 : Math.max(0, clock.nowMs() - active.oldestStartMs()));
    }

    @Override
    public List<LogDirSpace> logDirs() {
        return logDirs.current();
    }

    @Override
    public boolean controllerPresent() {
        return cluster.map(ClusterRuntime::controllerPresent).orElse(true);
    }
}
