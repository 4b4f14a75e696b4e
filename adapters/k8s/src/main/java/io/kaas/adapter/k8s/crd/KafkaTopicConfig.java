package io.kaas.adapter.k8s.crd;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/**
 * A topic's configuration overrides: one field per Apache Kafka 3.7 topic config, named in camelCase
 * ({@code retention.ms} is {@code retentionMs}). The operator writes the set ones, with Kafka's names, into the
 * topic's {@code .config.json}.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class KafkaTopicConfig {
    @JsonPropertyDescription("Kafka's segment.bytes; unset means the broker default.")
    private Integer segmentBytes;

    @JsonPropertyDescription("Kafka's segment.ms; unset means the broker default.")
    private Long segmentMs;

    @JsonPropertyDescription("Kafka's segment.jitter.ms; unset means the broker default.")
    private Long segmentJitterMs;

    @JsonPropertyDescription("Kafka's segment.index.bytes; unset means the broker default.")
    private Integer segmentIndexBytes;

    @JsonPropertyDescription("Kafka's flush.messages; unset means the broker default.")
    private Long flushMessages;

    @JsonPropertyDescription("Kafka's flush.ms; unset means the broker default.")
    private Long flushMs;

    @JsonPropertyDescription("Kafka's retention.bytes; unset means the broker default.")
    private Long retentionBytes;

    @JsonPropertyDescription("Kafka's retention.ms; unset means the broker default.")
    private Long retentionMs;

    @JsonPropertyDescription("Kafka's max.message.bytes; unset means the broker default.")
    private Integer maxMessageBytes;

    @JsonPropertyDescription("Kafka's index.interval.bytes; unset means the broker default.")
    private Integer indexIntervalBytes;

    @JsonPropertyDescription("Kafka's delete.retention.ms; unset means the broker default.")
    private Long deleteRetentionMs;

    @JsonPropertyDescription("Kafka's min.compaction.lag.ms; unset means the broker default.")
    private Long minCompactionLagMs;

    @JsonPropertyDescription("Kafka's max.compaction.lag.ms; unset means the broker default.")
    private Long maxCompactionLagMs;

    @JsonPropertyDescription("Kafka's file.delete.delay.ms; unset means the broker default.")
    private Long fileDeleteDelayMs;

    @JsonPropertyDescription("Kafka's min.cleanable.dirty.ratio; unset means the broker default.")
    private Double minCleanableDirtyRatio;

    @JsonPropertyDescription("Kafka's cleanup.policy (a comma-separated list); unset means the broker default.")
    private String cleanupPolicy;

    @JsonPropertyDescription("Kafka's unclean.leader.election.enable; unset means the broker default.")
    private Boolean uncleanLeaderElectionEnable;

    @JsonPropertyDescription("Kafka's min.insync.replicas; unset means the broker default.")
    private Integer minInsyncReplicas;

    @JsonPropertyDescription("Kafka's compression.type; unset means the broker default.")
    private String compressionType;

    @JsonPropertyDescription("Kafka's preallocate; unset means the broker default.")
    private Boolean preallocate;

    @JsonPropertyDescription("Kafka's message.format.version; unset means the broker default.")
    private String messageFormatVersion;

    @JsonPropertyDescription("Kafka's message.timestamp.type; unset means the broker default.")
    private String messageTimestampType;

    @JsonPropertyDescription("Kafka's message.timestamp.difference.max.ms; unset means the broker default.")
    private Long messageTimestampDifferenceMaxMs;

    @JsonPropertyDescription("Kafka's message.timestamp.before.max.ms; unset means the broker default.")
    private Long messageTimestampBeforeMaxMs;

    @JsonPropertyDescription("Kafka's message.timestamp.after.max.ms; unset means the broker default.")
    private Long messageTimestampAfterMaxMs;

    @JsonPropertyDescription("Kafka's leader.replication.throttled.replicas (a comma-separated list); unset means "
            + "the broker default.")
    private String leaderReplicationThrottledReplicas;

    @JsonPropertyDescription("Kafka's follower.replication.throttled.replicas (a comma-separated list); unset means"
            + " the broker default.")
    private String followerReplicationThrottledReplicas;

    @JsonPropertyDescription("Kafka's message.downconversion.enable; unset means the broker default.")
    private Boolean messageDownconversionEnable;

    @JsonPropertyDescription("Kafka's remote.storage.enable; unset means the broker default.")
    private Boolean remoteStorageEnable;

    @JsonPropertyDescription("Kafka's local.retention.ms; unset means the broker default.")
    private Long localRetentionMs;

    @JsonPropertyDescription("Kafka's local.retention.bytes; unset means the broker default.")
    private Long localRetentionBytes;

    public Integer getSegmentBytes() {
        return segmentBytes;
    }

    public void setSegmentBytes(Integer segmentBytes) {
        this.segmentBytes = segmentBytes;
    }

    public Long getSegmentMs() {
        return segmentMs;
    }

    public void setSegmentMs(Long segmentMs) {
        this.segmentMs = segmentMs;
    }

    public Long getSegmentJitterMs() {
        return segmentJitterMs;
    }

    public void setSegmentJitterMs(Long segmentJitterMs) {
        this.segmentJitterMs = segmentJitterMs;
    }

    public Integer getSegmentIndexBytes() {
        return segmentIndexBytes;
    }

    public void setSegmentIndexBytes(Integer segmentIndexBytes) {
        this.segmentIndexBytes = segmentIndexBytes;
    }

    public Long getFlushMessages() {
        return flushMessages;
    }

    public void setFlushMessages(Long flushMessages) {
        this.flushMessages = flushMessages;
    }

    public Long getFlushMs() {
        return flushMs;
    }

    public void setFlushMs(Long flushMs) {
        this.flushMs = flushMs;
    }

    public Long getRetentionBytes() {
        return retentionBytes;
    }

    public void setRetentionBytes(Long retentionBytes) {
        this.retentionBytes = retentionBytes;
    }

    public Long getRetentionMs() {
        return retentionMs;
    }

    public void setRetentionMs(Long retentionMs) {
        this.retentionMs = retentionMs;
    }

    public Integer getMaxMessageBytes() {
        return maxMessageBytes;
    }

    public void setMaxMessageBytes(Integer maxMessageBytes) {
        this.maxMessageBytes = maxMessageBytes;
    }

    public Integer getIndexIntervalBytes() {
        return indexIntervalBytes;
    }

    public void setIndexIntervalBytes(Integer indexIntervalBytes) {
        this.indexIntervalBytes = indexIntervalBytes;
    }

    public Long getDeleteRetentionMs() {
        return deleteRetentionMs;
    }

    public void setDeleteRetentionMs(Long deleteRetentionMs) {
        this.deleteRetentionMs = deleteRetentionMs;
    }

    public Long getMinCompactionLagMs() {
        return minCompactionLagMs;
    }

    public void setMinCompactionLagMs(Long minCompactionLagMs) {
        this.minCompactionLagMs = minCompactionLagMs;
    }

    public Long getMaxCompactionLagMs() {
        return maxCompactionLagMs;
    }

    public void setMaxCompactionLagMs(Long maxCompactionLagMs) {
        this.maxCompactionLagMs = maxCompactionLagMs;
    }

    public Long getFileDeleteDelayMs() {
        return fileDeleteDelayMs;
    }

    public void setFileDeleteDelayMs(Long fileDeleteDelayMs) {
        this.fileDeleteDelayMs = fileDeleteDelayMs;
    }

    public Double getMinCleanableDirtyRatio() {
        return minCleanableDirtyRatio;
    }

    public void setMinCleanableDirtyRatio(Double minCleanableDirtyRatio) {
        this.minCleanableDirtyRatio = minCleanableDirtyRatio;
    }

    public String getCleanupPolicy() {
        return cleanupPolicy;
    }

    public void setCleanupPolicy(String cleanupPolicy) {
        this.cleanupPolicy = cleanupPolicy;
    }

    public Boolean getUncleanLeaderElectionEnable() {
        return uncleanLeaderElectionEnable;
    }

    public void setUncleanLeaderElectionEnable(Boolean uncleanLeaderElectionEnable) {
        this.uncleanLeaderElectionEnable = uncleanLeaderElectionEnable;
    }

    public Integer getMinInsyncReplicas() {
        return minInsyncReplicas;
    }

    public void setMinInsyncReplicas(Integer minInsyncReplicas) {
        this.minInsyncReplicas = minInsyncReplicas;
    }

    public String getCompressionType() {
        return compressionType;
    }

    public void setCompressionType(String compressionType) {
        this.compressionType = compressionType;
    }

    public Boolean getPreallocate() {
        return preallocate;
    }

    public void setPreallocate(Boolean preallocate) {
        this.preallocate = preallocate;
    }

    public String getMessageFormatVersion() {
        return messageFormatVersion;
    }

    public void setMessageFormatVersion(String messageFormatVersion) {
        this.messageFormatVersion = messageFormatVersion;
    }

    public String getMessageTimestampType() {
        return messageTimestampType;
    }

    public void setMessageTimestampType(String messageTimestampType) {
        this.messageTimestampType = messageTimestampType;
    }

    public Long getMessageTimestampDifferenceMaxMs() {
        return messageTimestampDifferenceMaxMs;
    }

    public void setMessageTimestampDifferenceMaxMs(Long messageTimestampDifferenceMaxMs) {
        this.messageTimestampDifferenceMaxMs = messageTimestampDifferenceMaxMs;
    }

    public Long getMessageTimestampBeforeMaxMs() {
        return messageTimestampBeforeMaxMs;
    }

    public void setMessageTimestampBeforeMaxMs(Long messageTimestampBeforeMaxMs) {
        this.messageTimestampBeforeMaxMs = messageTimestampBeforeMaxMs;
    }

    public Long getMessageTimestampAfterMaxMs() {
        return messageTimestampAfterMaxMs;
    }

    public void setMessageTimestampAfterMaxMs(Long messageTimestampAfterMaxMs) {
        this.messageTimestampAfterMaxMs = messageTimestampAfterMaxMs;
    }

    public String getLeaderReplicationThrottledReplicas() {
        return leaderReplicationThrottledReplicas;
    }

    public void setLeaderReplicationThrottledReplicas(String leaderReplicationThrottledReplicas) {
        this.leaderReplicationThrottledReplicas = leaderReplicationThrottledReplicas;
    }

    public String getFollowerReplicationThrottledReplicas() {
        return followerReplicationThrottledReplicas;
    }

    public void setFollowerReplicationThrottledReplicas(String followerReplicationThrottledReplicas) {
        this.followerReplicationThrottledReplicas = followerReplicationThrottledReplicas;
    }

    public Boolean getMessageDownconversionEnable() {
        return messageDownconversionEnable;
    }

    public void setMessageDownconversionEnable(Boolean messageDownconversionEnable) {
        this.messageDownconversionEnable = messageDownconversionEnable;
    }

    public Boolean getRemoteStorageEnable() {
        return remoteStorageEnable;
    }

    public void setRemoteStorageEnable(Boolean remoteStorageEnable) {
        this.remoteStorageEnable = remoteStorageEnable;
    }

    public Long getLocalRetentionMs() {
        return localRetentionMs;
    }

    public void setLocalRetentionMs(Long localRetentionMs) {
        this.localRetentionMs = localRetentionMs;
    }

    public Long getLocalRetentionBytes() {
        return localRetentionBytes;
    }

    public void setLocalRetentionBytes(Long localRetentionBytes) {
        this.localRetentionBytes = localRetentionBytes;
    }
}
