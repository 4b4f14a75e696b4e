package io.kaas.operator.model;

import io.kaas.adapter.k8s.crd.TopicReadyReasons;
import java.util.Objects;

/**
 * Why a resource cannot be materialised as it stands: reported as Ready=False with this reason and message, while
 * nothing on the volume changes.
 *
 * @param reason  one CamelCase word, the condition's reason
 * @param message what was rejected, for a person
 */
public record Refusal(String reason, String message) {
    public static final String INVALID_TOPIC_NAME = TopicReadyReasons.INVALID_TOPIC_NAME;
    public static final String INVALID_PARTITIONS = TopicReadyReasons.INVALID_PARTITIONS;
    public static final String INVALID_CONFIG = TopicReadyReasons.INVALID_CONFIG;
    public static final String INVALID_VOLUME_BINDING = TopicReadyReasons.INVALID_VOLUME_BINDING;
    public static final String PARTITION_DECREASE_REFUSED = TopicReadyReasons.PARTITION_DECREASE_REFUSED;
    public static final String TOPIC_NAME_CONFLICT = TopicReadyReasons.TOPIC_NAME_CONFLICT;
    /** A KafkaUser's ACL rule kaas cannot express. */
    public static final String INVALID_ACL = "InvalidAcl";
    /** A KafkaUser's pre-derived SCRAM credential or password reference is malformed. */
    public static final String INVALID_CREDENTIAL = "InvalidCredential";
    /** The Secret a KafkaUser's password comes from does not exist (yet). */
    public static final String SECRET_NOT_FOUND = "SecretNotFound";
    /** The Secret exists without the key the KafkaUser names. */
    public static final String SECRET_KEY_NOT_FOUND = "SecretKeyNotFound";
    /** {@code <user>-kafka-credentials} exists and is not this KafkaUser's: it is never overwritten. */
    public static final String SECRET_CONFLICT = "SecretConflict";
    /** A KafkaCluster's external listener cannot be built as declared. */
    public static final String INVALID_EXTERNAL_LISTENER = "InvalidExternalListener";

    public Refusal {
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(message, "message");
    }
}
