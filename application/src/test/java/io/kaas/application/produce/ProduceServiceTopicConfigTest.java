package io.kaas.application.produce;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.application.fake.TestBroker;
import io.kaas.application.log.LogRead;
import io.kaas.application.port.in.ProduceUseCase.Command;
import io.kaas.application.port.in.ProduceUseCase.PartitionRecords;
import io.kaas.application.port.in.ProduceUseCase.PartitionResult;
import io.kaas.domain.batch.BatchValidator;
import io.kaas.domain.batch.RecordBatchHeader;
import io.kaas.domain.batch.TestBatches;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.topic.TopicPartition;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The produce path obeys each topic's own configuration, including changes made while it runs. */
class ProduceServiceTopicConfigTest {
    private static final TopicPartition ORDERS_0 = new TopicPartition("orders", 0);

    private final TestBroker broker = new TestBroker();

    @Test
    void aBatchLargerThanTheTopicsMaxMessageBytesIsTooLarge() {
        broker.create("orders", 1, Map.of("max.message.bytes", "200"));

        PartitionResult result = produce(batch(300, now()));

        assertThat(result.error()).isEqualTo(KafkaError.MESSAGE_TOO_LARGE);
        assertThat(result.message()).isEqualTo("The record batch size in the append to orders-0 is 361 bytes which exceeds "
                + "the maximum configured value of 200.");
        assertThat(produce(batch(100, now())).error()).isEqualTo(KafkaError.NONE);
    }

    @Test
    void withoutAnOverrideTheBrokersMessageMaxBytesApplies() {
        broker.create("orders", 1);

        assertThat(produce(batch(10_000, now())).error()).isEqualTo(KafkaError.MESSAGE_TOO_LARGE);
        assertThat(produce(batch(9_000, now())).error()).isEqualTo(KafkaError.NONE);
    }

    @Test
    void loweringMaxMessageBytesTakesEffectOnTheNextProduce() {
        broker.create("orders", 1);
        assertThat(produce(batch(1_000, now())).error()).isEqualTo(KafkaError.NONE);

        broker.topics.updateConfigs("orders", c -> Map.of("max.message.bytes", "500"), false);

        assertThat(produce(batch(1_000, now())).error()).isEqualTo(KafkaError.MESSAGE_TOO_LARGE);
    }

    @Test
    void aBatchLargerThanASegmentIsARecordListTooLarge() {
        broker.create("orders", 1, Map.of("segment.bytes", "100"));

        PartitionResult result = produce(batch(100, now()));

        assertThat(result.error()).isEqualTo(KafkaError.RECORD_LIST_TOO_LARGE);
        assertThat(result.message()).isEqualTo("Message batch size is 161 bytes in append to partition orders-0, which "
                + "exceeds the maximum configured segment size of 100.");
    }

    @Test
    void timestampsOutsideTheTopicsLimitsAreInvalid() {
        broker.create("orders", 1, Map.of("message.timestamp.before.max.ms", "60000",
                "message.timestamp.after.max.ms", "1000"));

        assertThat(produce(batch(10, now() - 60_001)).error()).isEqualTo(KafkaError.INVALID_TIMESTAMP);
        assertThat(produce(batch(10, now() + 1_001)).error()).isEqualTo(KafkaError.INVALID_TIMESTAMP);
        assertThat(produce(batch(10, now() - 60_000)).error()).isEqualTo(KafkaError.NONE);
        assertThat(broker.topics.log(ORDERS_0).orElseThrow().offsets().logEndOffset()).as("only the valid batch").isEqualTo(1);
    }

    @Test
    void aLogAppendTimeTopicStampsBatchesWithTheBrokersClock() {
        broker.create("orders", 1, Map.of("message.timestamp.type", "LogAppendTime"));
        long producerTime = now() - 3_600_000;

        PartitionResult result = produce(batch(50, producerTime));

        assertThat(result.error()).isEqualTo(KafkaError.NONE);
        assertThat(result.logAppendTimeMs()).isEqualTo(now());
        ByteBuffer stored = read();
        RecordBatchHeader header = RecordBatchHeader.at(stored);
        assertThat(header.isLogAppendTime()).isTrue();
        assertThat(header.maxTimestamp()).isEqualTo(now());
        assertThat(header.baseTimestamp()).isEqualTo(producerTime);
        assertThat(header.computeCrc()).isEqualTo(header.storedCrc());
    }

    @Test
    void aCreateTimeTopicKeepsTheProducersTimestamps() {
        broker.create("orders", 1);

        PartitionResult result = produce(batch(50, now() - 5));

        assertThat(result.logAppendTimeMs()).isEqualTo(-1);
        assertThat(RecordBatchHeader.at(read()).maxTimestamp()).isEqualTo(now() - 5);
    }

    @Test
    void switchingToLogAppendTimeAppliesToTheNextBatch() {
        broker.create("orders", 1);
        produce(batch(10, now() - 5));

        broker.topics.updateConfigs("orders", c -> Map.of("message.timestamp.type", "LogAppendTime"), false);
        broker.clock.advance(1000);

        assertThat(produce(batch(10, 0)).logAppendTimeMs()).isEqualTo(now());
    }

    private long now() {
        return broker.clock.nowMs();
    }

    private static ByteBuffer batch(int recordBytes, long timestamp) {
        ByteBuffer batch = TestBatches.batch(1, timestamp, timestamp, TestBatches.records(recordBytes));
        assertThat(BatchValidator.validateProduced(batch)).isEmpty();
        return batch;
    }

    private PartitionResult produce(ByteBuffer batch) {
        List<PartitionResult> results = broker.produce.produce(new Command((short) 1, 1000,
                List.of(new PartitionRecords(ORDERS_0, batch)))).toCompletableFuture().join();
        return results.get(0);
    }

    private ByteBuffer read() {
        LogRead read = broker.topics.log(ORDERS_0).orElseThrow().read(0, Integer.MAX_VALUE, true);
        assertThat(read.error()).isEqualTo(KafkaError.NONE);
        return read.records().toByteBuffer();
    }
}
