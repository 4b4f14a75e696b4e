package io.kaas.adapter.wire.handler;

import io.kaas.adapter.wire.codec.FileSliceRecords;
import io.kaas.adapter.wire.dispatch.ApiHandler;
import io.kaas.adapter.wire.dispatch.RequestContext;
import io.kaas.adapter.wire.mapping.Access;
import io.kaas.adapter.wire.mapping.TopicIdMapping;
import io.kaas.application.port.in.FetchUseCase;
import io.kaas.application.port.in.FetchedRecords;
import io.kaas.application.port.in.TopicAdminUseCase;
import io.kaas.domain.security.AclOperation;
import io.kaas.domain.topic.Topic;
import io.kaas.domain.topic.TopicPartition;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.FetchRequestData;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.BaseRecords;
import org.apache.kafka.common.record.MemoryRecords;
import org.apache.kafka.common.requests.FetchMetadata;
import org.apache.kafka.common.requests.FetchRequest;
import org.apache.kafka.common.requests.FetchResponse;

/**
 * Fetch (key 1), without fetch sessions: every response carries session id 0, Apache's marker for
 * "no session", so clients send full fetches (KIP-227 is a stated non-goal). Batches go back as
 * views of the log's bytes; read_committed fetches stop at the last stable offset and carry the
 * aborted transactions their batches overlap. READ on each topic, else TOPIC_AUTHORIZATION_FAILED for its
 * partitions, as Apache.
 */
public final class FetchHandler implements ApiHandler<FetchRequest> {
    /** Fetch v13 switched from topic names to topic ids. */
    private static final short FIRST_TOPIC_ID_VERSION = 13;

    private final FetchUseCase fetch;
    private final TopicAdminUseCase topics;
    private final Access access;

    public FetchHandler(FetchUseCase fetch, TopicAdminUseCase topics, Access access) {
        this.fetch = fetch;
        this.topics = topics;
        this.access = access;
    }

    @Override
    public CompletionStage<FetchResponse> handle(RequestContext context, FetchRequest request) {
        FetchRequestData data = request.data();
        if (data.sessionId() != FetchMetadata.INVALID_SESSION_ID) {
            return CompletableFuture.completedFuture(sessionError(Errors.FETCH_SESSION_ID_NOT_FOUND));
        }
        boolean byId = request.version() >= FIRST_TOPIC_ID_VERSION;
        List<FetchUseCase.PartitionRequest> partitions = new ArrayList<>();
        List<FetchResponseData.FetchableTopicResponse> refused = new ArrayList<>();
        List<Uuid> ids = new ArrayList<>();
        for (FetchRequestData.FetchTopic topic : data.topics()) {
            String name = topic.topic();
            if (byId) {
                Optional<Topic> found = topics.byId(TopicIdMapping.fromWire(topic.topicId()));
                if (found.isEmpty()) {
                    refused.add(refusedTopic(topic, Errors.UNKNOWN_TOPIC_ID));
                    continue;
                }
                name = found.get().name();
            }
            if (!access.topic(context, AclOperation.READ, name)) {
                refused.add(refusedTopic(topic, Errors.TOPIC_AUTHORIZATION_FAILED));
                continue;
            }
            for (FetchRequestData.FetchPartition p : topic.partitions()) {
                partitions.add(new FetchUseCase.PartitionRequest(new TopicPartition(name, p.partition()),
                        p.fetchOffset(), p.partitionMaxBytes(), p.currentLeaderEpoch()));
                ids.add(topic.topicId());
            }
        }
        boolean readCommitted = request.isolationLevel() == IsolationLevel.READ_COMMITTED;
        FetchUseCase.Command command = new FetchUseCase.Command(data.maxWaitMs(), data.minBytes(), data.maxBytes(),
                readCommitted, partitions);
        return context.resume(fetch.fetch(command)).thenApply(results -> response(results, ids, refused, readCommitted));
    }

    private static FetchResponse response(List<FetchUseCase.PartitionData> results, List<Uuid> ids,
                                          List<FetchResponseData.FetchableTopicResponse> refused, boolean readCommitted) {
        FetchResponseData data = new FetchResponseData().setErrorCode(Errors.NONE.code())
                .setSessionId(FetchMetadata.INVALID_SESSION_ID);
        FetchResponseData.FetchableTopicResponse current = null;
        Iterator<Uuid> id = ids.iterator();
        for (FetchUseCase.PartitionData r : results) {
            Uuid topicId = id.next();
            if (current == null || !current.topic().equals(r.partition().topic()) || !current.topicId().equals(topicId)) {
                current = new FetchResponseData.FetchableTopicResponse().setTopic(r.partition().topic()).setTopicId(topicId);
                data.responses().add(current);
            }
            current.partitions().add(new FetchResponseData.PartitionData()
                    .setPartitionIndex(r.partition().partition())
                    .setErrorCode(r.error().code())
                    .setHighWatermark(r.offsets().highWatermark())
                    .setLastStableOffset(r.offsets().lastStableOffset())
                    .setLogStartOffset(r.offsets().logStartOffset())
                    .setAbortedTransactions(readCommitted ? aborted(r) : null)
                    .setRecords(records(r.records())));
        }
        data.responses().addAll(refused);
        return new FetchResponse(data);
    }

    /** The aborted transactions a read_committed consumer needs to drop records of, by producer and first offset. */
    private static List<FetchResponseData.AbortedTransaction> aborted(FetchUseCase.PartitionData r) {
        List<FetchResponseData.AbortedTransaction> aborted = new ArrayList<>(r.abortedTransactions().size());
        r.abortedTransactions().forEach(t -> aborted.add(new FetchResponseData.AbortedTransaction()
                .setProducerId(t.producerId()).setFirstOffset(t.firstOffset())));
        return aborted;
    }

    /** A topic none of whose partitions is read: its id unknown, or READ on it not allowed (Apache's answers). */
    private static FetchResponseData.FetchableTopicResponse refusedTopic(FetchRequestData.FetchTopic topic, Errors error) {
        FetchResponseData.FetchableTopicResponse response = new FetchResponseData.FetchableTopicResponse()
                .setTopic(topic.topic()).setTopicId(topic.topicId());
        for (FetchRequestData.FetchPartition p : topic.partitions()) {
            response.partitions().add(FetchResponse.partitionResponse(p.partition(), error));
        }
        return response;
    }

    private static FetchResponse sessionError(Errors error) {
        return new FetchResponse(new FetchResponseData().setErrorCode(error.code())
                .setSessionId(FetchMetadata.INVALID_SESSION_ID));
    }

    /** The records as the message classes carry them: a view of memory, or a file region sent as is. */
    private static BaseRecords records(FetchedRecords fetched) {
        if (fetched.sizeInBytes() == 0) {
            return MemoryRecords.EMPTY;
        }
        return fetched.inMemory().<BaseRecords>map(MemoryRecords::readableRecords)
                .orElseGet(() -> new FileSliceRecords(fetched));
    }
}
