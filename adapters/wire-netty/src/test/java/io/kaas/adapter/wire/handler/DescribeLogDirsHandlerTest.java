package io.kaas.adapter.wire.handler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.kaas.adapter.wire.support.HandlerTestBase;
import io.kaas.adapter.wire.support.ServedVersionsTest;
import io.kaas.adapter.wire.support.TestRecords;
import io.kaas.application.log.MemoryLogEngine;
import java.util.List;
import org.apache.kafka.common.message.DescribeLogDirsRequestData;
import org.apache.kafka.common.message.DescribeLogDirsResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.MemoryRecords;
import org.apache.kafka.common.requests.DescribeLogDirsRequest;
import org.apache.kafka.common.requests.DescribeLogDirsResponse;
import org.apache.kafka.common.requests.ProduceResponse;
import org.junit.jupiter.api.BeforeEach;

/** DescribeLogDirs at every served version: the one log directory and each partition's size. */
class DescribeLogDirsHandlerTest extends HandlerTestBase {
    private int producedBytes;

    @BeforeEach
    void produceToOrders() {
        broker.createTopic("orders", 2);
        broker.createTopic("audit", 1);
        MemoryRecords batch = TestRecords.batch(broker.clock().nowMs(), "a", "b", "c");
        producedBytes = batch.sizeInBytes();
        ProduceResponse produced = wire.roundTrip(TestRecords.produce((short) 9, (short) 1, "orders", 1, batch));
        assertThat(produced.data().responses().iterator().next().partitionResponses().get(0).errorCode())
                .isEqualTo(Errors.NONE.code());
    }

    @ServedVersionsTest(ApiKeys.DESCRIBE_LOG_DIRS)
    void everyPartitionWhenNoTopicsAreNamed(short version) {
        DescribeLogDirsResponseData.DescribeLogDirsResult dir = only(describe(version, null));

        assertThat(dir.errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(dir.logDir()).isEqualTo(MemoryLogEngine.LOG_DIR);
        assertThat(dir.topics()).extracting(DescribeLogDirsResponseData.DescribeLogDirsTopic::name)
                .containsExactly("audit", "orders");
        assertThat(dir.topics().get(1).partitions()).extracting(
                DescribeLogDirsResponseData.DescribeLogDirsPartition::partitionIndex,
                DescribeLogDirsResponseData.DescribeLogDirsPartition::partitionSize,
                DescribeLogDirsResponseData.DescribeLogDirsPartition::offsetLag,
                DescribeLogDirsResponseData.DescribeLogDirsPartition::isFutureKey)
                .containsExactly(tuple(0, 0L, 0L, false), tuple(1, (long) producedBytes, 0L, false));
        if (version >= 4) {
            assertThat(dir.totalBytes()).as("memory storage has no volume").isEqualTo(-1);
            assertThat(dir.usableBytes()).isEqualTo(-1);
        }
    }

    @ServedVersionsTest(ApiKeys.DESCRIBE_LOG_DIRS)
    void onlyTheNamedPartitionsThisBrokerServes(short version) {
        DescribeLogDirsRequestData.DescribableLogDirTopicCollection topics =
                new DescribeLogDirsRequestData.DescribableLogDirTopicCollection();
        topics.add(new DescribeLogDirsRequestData.DescribableLogDirTopic().setTopic("orders").setPartitions(List.of(1, 9)));
        topics.add(new DescribeLogDirsRequestData.DescribableLogDirTopic().setTopic("missing").setPartitions(List.of(0)));
        topics.add(new DescribeLogDirsRequestData.DescribableLogDirTopic().setTopic("audit").setPartitions(List.of()));

        DescribeLogDirsResponseData.DescribeLogDirsResult dir = only(describe(version, topics));

        assertThat(dir.topics()).singleElement().satisfies(t -> {
            assertThat(t.name()).isEqualTo("orders");
            assertThat(t.partitions()).extracting(DescribeLogDirsResponseData.DescribeLogDirsPartition::partitionIndex)
                    .containsExactly(1);
        });
    }

    private DescribeLogDirsResponse describe(short version, DescribeLogDirsRequestData.DescribableLogDirTopicCollection topics) {
        return wire.roundTrip(new DescribeLogDirsRequest.Builder(new DescribeLogDirsRequestData().setTopics(topics))
                .build(version));
    }

    private static DescribeLogDirsResponseData.DescribeLogDirsResult only(DescribeLogDirsResponse response) {
        assertThat(response.data().errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(response.data().results()).hasSize(1);
        return response.data().results().get(0);
    }
}
