package io.kaas.adapter.wire.handler;

import io.kaas.adapter.wire.dispatch.ApiHandler;
import io.kaas.adapter.wire.dispatch.RequestContext;
import io.kaas.adapter.wire.mapping.Access;
import io.kaas.application.port.in.LogDirsUseCase;
import io.kaas.domain.security.AclOperation;
import io.kaas.domain.topic.TopicPartition;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.kafka.common.message.DescribeLogDirsRequestData;
import org.apache.kafka.common.message.DescribeLogDirsResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.DescribeLogDirsRequest;
import org.apache.kafka.common.requests.DescribeLogDirsResponse;

/**
 * DescribeLogDirs (key 35): the broker's log dirs, each volume's size and free space (v4+), and the
 * size of each requested partition under the dir holding it. A null topic list means every partition;
 * partitions this broker does not serve are left out, and a topic with none to report is omitted, as in
 * Apache. A partition being moved between log dirs is also listed under its target as a future replica,
 * with its copy's size and offset lag; the current replica's lag is 0 (there are no followers).
 */
public final class DescribeLogDirsHandler implements ApiHandler<DescribeLogDirsRequest> {
    private final LogDirsUseCase logDirs;
    private final Access access;

    public DescribeLogDirsHandler(LogDirsUseCase logDirs, Access access) {
        this.logDirs = logDirs;
        this.access = access;
    }

    @Override
    public CompletionStage<DescribeLogDirsResponse> handle(RequestContext context, DescribeLogDirsRequest request) {
        if (!access.cluster(context, AclOperation.DESCRIBE)) {
            return CompletableFuture.completedFuture(new DescribeLogDirsResponse(new DescribeLogDirsResponseData()
                    .setErrorCode(Errors.CLUSTER_AUTHORIZATION_FAILED.code())));
        }
        Set<TopicPartition> wanted = null;
        if (!request.isAllTopicPartitions()) {
            wanted = new HashSet<>();
            for (DescribeLogDirsRequestData.DescribableLogDirTopic topic : request.data().topics()) {
                for (int partition : topic.partitions()) {
                    wanted.add(new TopicPartition(topic.topic(), partition));
                }
            }
        }
        return context.resume(logDirs.describe(wanted)).thenApply(DescribeLogDirsHandler::response);
    }

    private static DescribeLogDirsResponse response(List<LogDirsUseCase.LogDir> dirs) {
        DescribeLogDirsResponseData data = new DescribeLogDirsResponseData().setErrorCode(Errors.NONE.code());
        for (LogDirsUseCase.LogDir dir : dirs) {
            List<DescribeLogDirsResponseData.DescribeLogDirsTopic> topics = ByTopic.group(dir.partitions(),
                    size -> size.partition().topic(),
                    name -> new DescribeLogDirsResponseData.DescribeLogDirsTopic().setName(name),
                    (topic, size) -> topic.partitions().add(new DescribeLogDirsResponseData.DescribeLogDirsPartition()
                            .setPartitionIndex(size.partition().partition())
                            .setPartitionSize(size.sizeBytes())
                            .setOffsetLag(size.offsetLag())
                            .setIsFutureKey(size.future())));
            data.results().add(new DescribeLogDirsResponseData.DescribeLogDirsResult()
                    .setErrorCode(dir.error().code())
                    .setLogDir(dir.path())
                    .setTopics(topics)
                    .setTotalBytes(dir.totalBytes())
                    .setUsableBytes(dir.usableBytes()));
        }
        return new DescribeLogDirsResponse(data);
    }
}
