package io.kaas.adapter.wire.handler;

import io.kaas.adapter.wire.codec.FileSliceRecords;
import io.kaas.adapter.wire.dispatch.ApiHandler;
import io.kaas.adapter.wire.dispatch.RequestContext;
import io.kaas.adapter.wire.mapping.Access;
import io.kaas.adapter.wire.mapping.TopicIdMapping;
import io.kaas.application.port.in.FetchUseCase;
import io.kaas.application.port.in.FetchedRecords;
import io.kaas.application.port.in.QuotaEnforcement;
import io.kaas.domain.fetch.SessionKey;
import io.kaas.domain.security.AclOperation;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletionStage;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.FetchRequestData;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.record.BaseRecords;
import org.apache.kafka.common.record.MemoryRecords;
import org.apache.kafka.common.requests.FetchRequest;
import org.apache.kafka.common.requests.FetchResponse;

/**
 * Fetch (key 1) with KIP-227 fetch sessions: the request's session id and epoch, the partitions it names
 * (by topic id from v13) and those it forgets go to the fetch use case, which keeps the sessions; the answer
 * carries the session id to use next and, in an incremental session, only the partitions that changed.
 * Batches go back as views of the log's bytes; read_committed fetches stop at the last stable offset and
 * carry the aborted transactions their batches overlap. READ on each topic, else TOPIC_AUTHORIZATION_FAILED
 * for its partitions, as Apache.
 *
 * <p>The client's {@code consumer_byte_rate} quota caps what one answer may carry (its bound over all but the
 * filling sample, as Apache) and is charged the answer's bytes; an answer that puts the client over it goes out
 * empty, with the throttle time, and the session unchanged, so the same data is fetched again afterwards.
 */
public final class FetchHandler implements ApiHandler<FetchRequest> {
    /** Fetch v13 switched from topic names to topic ids. */
    private static final short FIRST_TOPIC_ID_VERSION = 13;

    private final FetchUseCase fetch;
    private final Access access;
    private final QuotaEnforcement quotas;

    public FetchHandler(FetchUseCase fetch, Access access, QuotaEnforcement quotas) {
        this.fetch = fetch;
        this.access = access;
        this.quotas = quotas;
    }

    @Override
    public CompletionStage<FetchResponse> handle(RequestContext context, FetchRequest request) {
        FetchRequestData data = request.data();
        boolean byId = request.version() >= FIRST_TOPIC_ID_VERSION;
        List<FetchUseCase.SessionPartition> partitions = new ArrayList<>();
        for (FetchRequestData.FetchTopic topic : data.topics()) {
            for (FetchRequestData.FetchPartition p : topic.partitions()) {
                partitions.add(new FetchUseCase.SessionPartition(key(byId, topic.topicId(), topic.topic(), p.partition()),
                        p.fetchOffset(), p.partitionMaxBytes(), p.currentLeaderEpoch()));
            }
        }
        List<SessionKey> forgotten = new ArrayList<>();
        for (FetchRequestData.ForgottenTopic topic : data.forgottenTopicsData()) {
            for (int p : topic.partitions()) {
                forgotten.add(key(byId, topic.topicId(), topic.topic(), p));
            }
        }
        boolean readCommitted = request.isolationLevel() == IsolationLevel.READ_COMMITTED;
        String user = context.user();
        String clientId = context.clientId();
        int maxBytes = Math.min(data.maxBytes(), quotas.fetchMaxBytes(user, clientId));
        FetchUseCase.SessionFetch command = new FetchUseCase.SessionFetch(data.sessionId(), data.sessionEpoch(), byId,
                data.maxWaitMs(), Math.min(data.minBytes(), maxBytes), maxBytes, readCommitted, partitions, forgotten,
                name -> access.topic(context, AclOperation.READ, name), bytes -> quotas.fetch(user, clientId, bytes));
        return context.resume(fetch.fetch(command)).thenApply(result -> response(result, readCommitted));
    }

    private static SessionKey key(boolean byId, Uuid topicId, String topic, int partition) {
        return byId ? SessionKey.byId(TopicIdMapping.fromWire(topicId), partition) : SessionKey.byName(topic, partition);
    }

    private static FetchResponse response(FetchUseCase.SessionFetchResult result, boolean readCommitted) {
        FetchResponseData data = new FetchResponseData().setErrorCode(result.error().code())
                .setSessionId(result.sessionId()).setThrottleTimeMs(result.throttleTimeMs());
        FetchResponseData.FetchableTopicResponse current = null;
        SessionKey currentKey = null;
        for (FetchUseCase.SessionAnswer answer : result.partitions()) {
            FetchUseCase.PartitionData r = answer.data();
            if (current == null || !sameTopic(currentKey, answer.key())) {
                currentKey = answer.key();
                current = new FetchResponseData.FetchableTopicResponse().setTopic(r.partition().topic())
                        .setTopicId(TopicIdMapping.toWire(answer.key().topicId()));
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
        return new FetchResponse(data);
    }

    private static boolean sameTopic(SessionKey a, SessionKey b) {
        return Objects.equals(a.topicId(), b.topicId()) && Objects.equals(a.topic(), b.topic());
    }

    /** The aborted transactions a read_committed consumer needs to drop records of, by producer and first offset. */
    private static List<FetchResponseData.AbortedTransaction> aborted(FetchUseCase.PartitionData r) {
        List<FetchResponseData.AbortedTransaction> aborted = new ArrayList<>(r.abortedTransactions().size());
        r.abortedTransactions().forEach(t -> aborted.add(new FetchResponseData.AbortedTransaction()
                .setProducerId(t.producerId()).setFirstOffset(t.firstOffset())));
        return aborted;
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
