package io.kaas.adapter.wire.handler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.kaas.adapter.wire.support.HandlerTestBase;
import io.kaas.adapter.wire.support.ServedVersionsTest;
import io.kaas.application.log.MemoryLogEngine;
import java.util.List;
import org.apache.kafka.common.message.AlterReplicaLogDirsRequestData;
import org.apache.kafka.common.message.AlterReplicaLogDirsResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AlterReplicaLogDirsRequest;
import org.apache.kafka.common.requests.AlterReplicaLogDirsResponse;
import org.junit.jupiter.api.BeforeEach;

/**
 * AlterReplicaLogDirs at every served version, on a broker with one log dir (memory storage): a path that is no
 * log dir is LOG_DIR_NOT_FOUND, a partition not hosted here REPLICA_NOT_AVAILABLE, the dir a partition is in NONE.
 */
class AlterReplicaLogDirsHandlerTest extends HandlerTestBase {

    @BeforeEach
    void topics() {
        broker.createTopic("orders", 2);
    }

    @ServedVersionsTest(ApiKeys.ALTER_REPLICA_LOG_DIRS)
    void answersPerPartitionGroupedByTopic(short version) {
        AlterReplicaLogDirsRequestData.AlterReplicaLogDirCollection dirs =
                new AlterReplicaLogDirsRequestData.AlterReplicaLogDirCollection();
        dirs.add(dir(MemoryLogEngine.LOG_DIR, "orders", 0, 1, 5));
        dirs.add(dir("/no/such/dir", "audit", 0));

        AlterReplicaLogDirsResponse response = wire.roundTrip(new AlterReplicaLogDirsRequest.Builder(
                new AlterReplicaLogDirsRequestData().setDirs(dirs)).build(version));

        assertThat(response.data().results()).extracting(AlterReplicaLogDirsResponseData.AlterReplicaLogDirTopicResult::topicName)
                .containsExactly("orders", "audit");
        assertThat(response.data().results().get(0).partitions()).extracting(
                AlterReplicaLogDirsResponseData.AlterReplicaLogDirPartitionResult::partitionIndex,
                AlterReplicaLogDirsResponseData.AlterReplicaLogDirPartitionResult::errorCode)
                .containsExactly(tuple(0, Errors.NONE.code()), tuple(1, Errors.NONE.code()),
                        tuple(5, Errors.REPLICA_NOT_AVAILABLE.code()));
        assertThat(response.data().results().get(1).partitions()).extracting(
                AlterReplicaLogDirsResponseData.AlterReplicaLogDirPartitionResult::errorCode)
                .containsExactly(Errors.LOG_DIR_NOT_FOUND.code());
    }

    private static AlterReplicaLogDirsRequestData.AlterReplicaLogDir dir(String path, String topic,
                                                                          Integer... partitions) {
        AlterReplicaLogDirsRequestData.AlterReplicaLogDirTopicCollection topics =
                new AlterReplicaLogDirsRequestData.AlterReplicaLogDirTopicCollection();
        topics.add(new AlterReplicaLogDirsRequestData.AlterReplicaLogDirTopic().setName(topic)
                .setPartitions(List.of(partitions)));
        return new AlterReplicaLogDirsRequestData.AlterReplicaLogDir().setPath(path).setTopics(topics);
    }
}
