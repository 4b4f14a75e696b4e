package io.kaas.domain.error;

import java.util.HashMap;
import java.util.Map;

/**
 * Kafka protocol error codes, with the numeric values of Apache Kafka 3.7's {@code Errors} enum.
 *
 * <p>The domain and the use cases speak in these; only the wire adapter maps them to kafka-clients'
 * {@code Errors}. A test there asserts that every constant's name and code match Apache's.
 */
public enum KafkaError {
    UNKNOWN_SERVER_ERROR(-1),
    NONE(0),
    OFFSET_OUT_OF_RANGE(1),
    CORRUPT_MESSAGE(2),
    UNKNOWN_TOPIC_OR_PARTITION(3),
    INVALID_FETCH_SIZE(4),
    LEADER_NOT_AVAILABLE(5),
    NOT_LEADER_OR_FOLLOWER(6),
    REQUEST_TIMED_OUT(7),
    MESSAGE_TOO_LARGE(10),
    OFFSET_METADATA_TOO_LARGE(12),
    COORDINATOR_LOAD_IN_PROGRESS(14),
    COORDINATOR_NOT_AVAILABLE(15),
    NOT_COORDINATOR(16),
    INVALID_TOPIC_EXCEPTION(17),
    RECORD_LIST_TOO_LARGE(18),
    NOT_ENOUGH_REPLICAS(19),
    INVALID_REQUIRED_ACKS(21),
    ILLEGAL_GENERATION(22),
    INCONSISTENT_GROUP_PROTOCOL(23),
    INVALID_GROUP_ID(24),
    UNKNOWN_MEMBER_ID(25),
    INVALID_SESSION_TIMEOUT(26),
    REBALANCE_IN_PROGRESS(27),
    INVALID_COMMIT_OFFSET_SIZE(28),
    TOPIC_AUTHORIZATION_FAILED(29),
    GROUP_AUTHORIZATION_FAILED(30),
    CLUSTER_AUTHORIZATION_FAILED(31),
    INVALID_TIMESTAMP(32),
    UNSUPPORTED_SASL_MECHANISM(33),
    ILLEGAL_SASL_STATE(34),
    UNSUPPORTED_VERSION(35),
    TOPIC_ALREADY_EXISTS(36),
    INVALID_PARTITIONS(37),
    INVALID_REPLICATION_FACTOR(38),
    INVALID_REPLICA_ASSIGNMENT(39),
    INVALID_CONFIG(40),
    INVALID_REQUEST(42),
    POLICY_VIOLATION(44),
    OUT_OF_ORDER_SEQUENCE_NUMBER(45),
    INVALID_PRODUCER_EPOCH(47),
    INVALID_TXN_STATE(48),
    INVALID_PRODUCER_ID_MAPPING(49),
    INVALID_TRANSACTION_TIMEOUT(50),
    CONCURRENT_TRANSACTIONS(51),
    TRANSACTION_COORDINATOR_FENCED(52),
    TRANSACTIONAL_ID_AUTHORIZATION_FAILED(53),
    SECURITY_DISABLED(54),
    OPERATION_NOT_ATTEMPTED(55),
    KAFKA_STORAGE_ERROR(56),
    SASL_AUTHENTICATION_FAILED(58),
    UNKNOWN_PRODUCER_ID(59),
    NON_EMPTY_GROUP(68),
    GROUP_ID_NOT_FOUND(69),
    UNSUPPORTED_COMPRESSION_TYPE(76),
    MEMBER_ID_REQUIRED(79),
    GROUP_MAX_SIZE_REACHED(81),
    FENCED_INSTANCE_ID(82),
    FENCED_LEADER_EPOCH(74),
    UNKNOWN_LEADER_EPOCH(75),
    ELECTION_NOT_NEEDED(84),
    NO_REASSIGNMENT_IN_PROGRESS(85),
    GROUP_SUBSCRIBED_TO_TOPIC(86),
    INVALID_RECORD(87),
    UNSTABLE_OFFSET_COMMIT(88),
    PRODUCER_FENCED(90),
    RESOURCE_NOT_FOUND(91),
    DUPLICATE_RESOURCE(92),
    UNACCEPTABLE_CREDENTIAL(93),
    UNKNOWN_TOPIC_ID(100),
    TRANSACTIONAL_ID_NOT_FOUND(105),
    MISMATCHED_ENDPOINT_TYPE(114),
    UNSUPPORTED_ENDPOINT_TYPE(115);

    private static final Map<Short, KafkaError> BY_CODE = new HashMap<>();

    static {
        for (KafkaError e : values()) {
            BY_CODE.put(e.code, e);
        }
    }

    private final short code;

    KafkaError(int code) {
        this.code = (short) code;
    }

    /** The numeric code sent on the wire. */
    public short code() {
        return code;
    }

    /** The error for a wire code; unknown codes read as {@link #UNKNOWN_SERVER_ERROR}. */
    public static KafkaError forCode(short code) {
        return BY_CODE.getOrDefault(code, UNKNOWN_SERVER_ERROR);
    }
}
