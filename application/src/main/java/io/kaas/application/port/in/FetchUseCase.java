package io.kaas.application.port.in;

import io.kaas.domain.error.KafkaError;
import io.kaas.domain.fetch.SessionKey;
import io.kaas.domain.log.AbortedTxn;
import io.kaas.domain.log.LeaderEpochCheck;
import io.kaas.domain.log.LogOffsets;
import io.kaas.domain.topic.TopicPartition;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.function.Predicate;

/** Reads batches from partition logs, long-polling when there is not enough yet. */
public interface FetchUseCase {

    /**
     * A consumer's Fetch with its KIP-227 session: opens, continues or closes the session the request names,
     * reads every partition the fetch covers (an incremental fetch covers its whole session) and answers
     * those a session answer must carry. A session error is an answer with that error and no partitions.
     */
    CompletionStage<SessionFetchResult> fetch(SessionFetch fetch);

    /**
     * Reads every requested partition. If fewer than {@code minBytes} are available (and no
     * partition failed) the fetch is parked until appends bring enough or {@code maxWaitMs} passes,
     * then answered with whatever is there.
     */
    CompletionStage<List<PartitionData>> fetch(Command command);

    /** {@code readCommitted}: read_committed isolation, capped at the last stable offset. */
    record Command(int maxWaitMs, int minBytes, int maxBytes, boolean readCommitted, List<PartitionRequest> partitions) {
    }

    /** {@code currentLeaderEpoch}: the leader epoch the client believes current (Fetch v9+), -1 for none. */
    record PartitionRequest(TopicPartition partition, long fetchOffset, int maxBytes, int currentLeaderEpoch) {
        /** A request that names no leader epoch. */
        public PartitionRequest(TopicPartition partition, long fetchOffset, int maxBytes) {
            this(partition, fetchOffset, maxBytes, LeaderEpochCheck.NO_EPOCH);
        }
    }

    /**
     * One partition's answer: its offsets and whole contiguous batches (possibly none), or an error;
     * for read_committed, below the last stable offset and with the aborted transactions they overlap.
     */
    record PartitionData(TopicPartition partition, KafkaError error, LogOffsets offsets, FetchedRecords records,
                         List<AbortedTxn> abortedTransactions) {
        public PartitionData(TopicPartition partition, KafkaError error, LogOffsets offsets, FetchedRecords records) {
            this(partition, error, offsets, records, List.of());
        }

        public int sizeInBytes() {
            return records.sizeInBytes();
        }
    }

    /**
     * A Fetch request as its session sees it.
     *
     * @param sessionId    the session the client names, or {@code FetchSessionEpoch.NO_SESSION}
     * @param epoch        its epoch: {@code INITIAL} or {@code FINAL} for a full fetch, else the session's next one
     * @param usesTopicIds Fetch v13+: partitions are named by topic id
     * @param partitions   what the request names: every partition of a full fetch; those an incremental one adds
     *                     or changes
     * @param forgotten    partitions an incremental fetch removes from its session
     * @param mayRead      whether the client may read a topic; the others are answered TOPIC_AUTHORIZATION_FAILED
     * @param quota        what the answer costs the client's fetch byte-rate quota
     */
    record SessionFetch(int sessionId, int epoch, boolean usesTopicIds, int maxWaitMs, int minBytes, int maxBytes,
                        boolean readCommitted, List<SessionPartition> partitions, List<SessionKey> forgotten,
                        Predicate<String> mayRead, FetchQuota quota) {
    }

    /** The client's {@code consumer_byte_rate} quota, as the fetch's answer is charged to it. */
    @FunctionalInterface
    interface FetchQuota {
        FetchQuota NONE = bytes -> 0;

        /**
         * Records an answer of {@code bytes}; when that throttles the client the bytes are taken back, as the answer
         * then goes out empty (Apache 3.7).
         *
         * @return the throttle time in milliseconds; 0 to send the answer
         */
        int throttleMs(long bytes);
    }

    /** One partition a fetch names, with what the client asks of it. */
    record SessionPartition(SessionKey key, long fetchOffset, int maxBytes, int currentLeaderEpoch) {
    }

    /**
     * The answer: a session error with no partitions, or the partitions to send (in an incremental session,
     * only those that changed) with the session id the client is to use next ({@code NO_SESSION}: none); or,
     * when the client is over its fetch quota, no partitions and how long it is throttled.
     */
    record SessionFetchResult(KafkaError error, int sessionId, List<SessionAnswer> partitions, int throttleTimeMs) {
        public SessionFetchResult(KafkaError error, int sessionId, List<SessionAnswer> partitions) {
            this(error, sessionId, partitions, 0);
        }
    }

    /** A partition's answer, under the key its request named it by; an unknown topic id has the topic name "". */
    record SessionAnswer(SessionKey key, PartitionData data) {
    }
}
