package io.kaas.application.producer;

import io.kaas.application.log.PartitionLog;
import io.kaas.application.port.in.ClusterUseCase;
import io.kaas.application.port.in.DescribeProducersUseCase;
import io.kaas.application.port.out.Clock;
import io.kaas.application.port.out.ProducerFenceLog;
import io.kaas.application.topic.TopicService;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.topic.TopicPartition;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Producer state across this broker's partitions: DescribeProducers, and fencing. When the
 * transaction coordinator hands out a newer epoch, every partition this broker leads refuses the
 * older epochs from then on (not only those the transaction wrote to), and the bump goes to this
 * broker's fence log so peers apply it to theirs; peers' logs are applied here on every sweep.
 */
public final class ProducerStateService implements DescribeProducersUseCase {
    private static final Logger LOG = LoggerFactory.getLogger(ProducerStateService.class);

    private final TopicService topics;
    private final ClusterUseCase cluster;
    private final ProducerFenceLog fenceLog;
    private final Clock clock;
    private final Executor io;
    /** The newest epoch applied per producer from each peer's log, so a sweep applies only what is new. */
    private final Map<Long, Short> applied = new ConcurrentHashMap<>();

    public ProducerStateService(TopicService topics, ClusterUseCase cluster, ProducerFenceLog fenceLog, Clock clock,
                                Executor io) {
        this.topics = topics;
        this.cluster = cluster;
        this.fenceLog = fenceLog;
        this.clock = clock;
        this.io = io;
    }

    @Override
    public PartitionProducers describe(TopicPartition partition) {
        Optional<PartitionLog> log = topics.log(partition);
        if (log.isEmpty()) {
            return new PartitionProducers(partition, topics.notServedHere(partition), List.of());
        }
        if (cluster.leaderOf(partition.topic(), partition.partition()) != cluster.self().id()) {
            return new PartitionProducers(partition, KafkaError.NOT_LEADER_OR_FOLLOWER, List.of());
        }
        return new PartitionProducers(partition, KafkaError.NONE, log.get().producers());
    }

    /**
     * Fences epochs below {@code epoch} of the producer on every local partition at once, and records
     * the bump in the fence log; the stage completes once the record is durable.
     */
    public CompletableFuture<Void> fence(long producerId, short epoch) {
        fenceLocally(producerId, epoch);
        ProducerFenceLog.Fence fence = new ProducerFenceLog.Fence(producerId, epoch, clock.nowMs());
        return CompletableFuture.runAsync(() -> fenceLog.append(fence), io);
    }

    /** Applies the bumps peers recorded since the last sweep. Blocking: run on the I/O executor. */
    public void applyPeerFences() {
        int self = cluster.self().id();
        for (ClusterUseCase.Broker broker : cluster.brokers()) {
            if (broker.id() == self) {
                continue;
            }
            try {
                for (ProducerFenceLog.Fence fence : fenceLog.read(broker.id())) {
                    Short known = applied.get(fence.producerId());
                    if (known == null || known < fence.producerEpoch()) {
                        fenceLocally(fence.producerId(), fence.producerEpoch());
                    }
                }
            } catch (RuntimeException e) {
                LOG.warn("cannot read the fence log of broker {}; the next sweep retries: {}", broker.id(), e.toString());
            }
        }
    }

    private void fenceLocally(long producerId, short epoch) {
        applied.merge(producerId, epoch, (a, b) -> a >= b ? a : b);
        for (PartitionLog log : topics.logs()) {
            log.fence(producerId, epoch);
        }
        LOG.debug("producer {} fenced below epoch {} on every local partition", producerId, epoch);
    }
}
