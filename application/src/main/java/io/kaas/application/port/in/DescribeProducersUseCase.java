package io.kaas.application.port.in;

import io.kaas.domain.error.KafkaError;
import io.kaas.domain.idempotence.ProducerState;
import io.kaas.domain.topic.TopicPartition;
import java.util.List;

/** DescribeProducers (KIP-664): the producers a partition leader remembers. */
public interface DescribeProducersUseCase {

    PartitionProducers describe(TopicPartition partition);

    record PartitionProducers(TopicPartition partition, KafkaError error, List<ProducerState> producers) {
    }
}
