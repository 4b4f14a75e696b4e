package io.kaas.adapter.wire.handler;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.adapter.wire.support.HandlerTestBase;
import io.kaas.adapter.wire.support.ServedVersionsTest;
import io.kaas.adapter.wire.support.TestRecords;
import io.kaas.application.log.LogRead;
import io.kaas.domain.topic.TopicPartition;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.CompressionType;
import org.apache.kafka.common.record.MemoryRecords;
import org.apache.kafka.common.record.MutableRecordBatch;
import org.apache.kafka.common.record.Record;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.requests.ProduceResponse;
import org.junit.jupiter.api.BeforeEach;

/**
 * Produce at every served version against topics with their own configuration: LogAppendTime
 * (the stored batch, read back by kafka-clients, carries the broker's time for every record and
 * the records themselves unchanged), max.message.bytes and the timestamp limits.
 */
class ProduceTopicConfigHandlerTest extends HandlerTestBase {
    @BeforeEach
    void createTopics() {
        broker.createTopic("stamped", 1, Map.of("message.timestamp.type", "LogAppendTime"));
        broker.createTopic("small", 1, Map.of("max.message.bytes", "100"));
        broker.createTopic("recent", 1, Map.of("message.timestamp.before.max.ms", "60000"));
    }

    @ServedVersionsTest(ApiKeys.PRODUCE)
    void logAppendTimeReplacesEveryRecordsTimestampAndLeavesTheRecordsAlone(short version) {
        long producerTime = broker.clock().nowMs() - 86_400_000L;
        broker.clock().advance(5);
        long brokerTime = broker.clock().nowMs();

        ProduceResponseData.PartitionProduceResponse answer = produce(version, "stamped",
                TestRecords.batch(CompressionType.GZIP, producerTime, "one", "two", "three"));

        assertThat(answer.errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(answer.logAppendTimeMs()).isEqualTo(brokerTime);
        LogRead read = broker.topics().log(new TopicPartition("stamped", 0)).orElseThrow().read(0, 1 << 20, true);
        MemoryRecords stored = MemoryRecords.readableRecords(read.records().toByteBuffer());
        MutableRecordBatch batch = stored.batches().iterator().next();
        batch.ensureValid(); // the recomputed CRC
        assertThat(batch.timestampType()).isEqualTo(TimestampType.LOG_APPEND_TIME);
        assertThat(batch.maxTimestamp()).isEqualTo(brokerTime);
        List<String> values = new ArrayList<>();
        for (Record record : batch) {
            assertThat(record.timestamp()).isEqualTo(brokerTime);
            values.add(StandardCharsets.UTF_8.decode(record.value()).toString());
        }
        assertThat(values).containsExactly("one", "two", "three");
    }

    @ServedVersionsTest(ApiKeys.PRODUCE)
    void aCreateTimeTopicAnswersWithoutAnAppendTime(short version) {
        ProduceResponseData.PartitionProduceResponse answer = produce(version, "recent",
                TestRecords.batch(broker.clock().nowMs(), "one"));

        assertThat(answer.errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(answer.logAppendTimeMs()).isEqualTo(-1);
    }

    @ServedVersionsTest(ApiKeys.PRODUCE)
    void aBatchOverTheTopicsMaxMessageBytesIsTooLarge(short version) {
        ProduceResponseData.PartitionProduceResponse answer = produce(version, "small",
                TestRecords.batch(broker.clock().nowMs(), "x".repeat(200)));

        assertThat(answer.errorCode()).isEqualTo(Errors.MESSAGE_TOO_LARGE.code());
        if (version >= 8) {
            assertThat(answer.errorMessage()).contains("exceeds the maximum configured value of 100");
        }
    }

    @ServedVersionsTest(ApiKeys.PRODUCE)
    void aTimestampBeyondTheTopicsLimitIsInvalid(short version) {
        ProduceResponseData.PartitionProduceResponse answer = produce(version, "recent",
                TestRecords.batch(broker.clock().nowMs() - 60_001, "old"));

        assertThat(answer.errorCode()).isEqualTo(Errors.INVALID_TIMESTAMP.code());
        if (version >= 8) {
            assertThat(answer.errorMessage()).isEqualTo("One or more records have been rejected due to invalid timestamp");
        }
    }

    private ProduceResponseData.PartitionProduceResponse produce(short version, String topic, MemoryRecords records) {
        ProduceResponse response = wire.roundTrip(TestRecords.produce(version, (short) 1, topic, 0, records));
        return response.data().responses().iterator().next().partitionResponses().get(0);
    }
}
