package io.kaas.domain.config;

import static io.kaas.domain.config.TopicConfigKey.Support.ENFORCED;
import static io.kaas.domain.config.TopicConfigKey.Support.INERT;
import static io.kaas.domain.config.TopicConfigKey.Support.PARTIAL;

import io.kaas.domain.config.TopicConfigKey.Support;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Every topic-level configuration key of Apache Kafka 3.7, with its type, default, valid values,
 * the broker setting that supplies its default, and whether kaas applies it. The order is
 * Apache's definition order, which decides which of several bad values a validation reports.
 */
public final class TopicConfigKeys {
    public static final String SEGMENT_BYTES = "segment.bytes";
    public static final String SEGMENT_MS = "segment.ms";
    public static final String SEGMENT_JITTER_MS = "segment.jitter.ms";
    public static final String SEGMENT_INDEX_BYTES = "segment.index.bytes";
    public static final String FLUSH_MESSAGES = "flush.messages";
    public static final String FLUSH_MS = "flush.ms";
    public static final String RETENTION_BYTES = "retention.bytes";
    public static final String RETENTION_MS = "retention.ms";
    public static final String MAX_MESSAGE_BYTES = "max.message.bytes";
    public static final String INDEX_INTERVAL_BYTES = "index.interval.bytes";
    public static final String DELETE_RETENTION_MS = "delete.retention.ms";
    public static final String MIN_COMPACTION_LAG_MS = "min.compaction.lag.ms";
    public static final String MAX_COMPACTION_LAG_MS = "max.compaction.lag.ms";
    public static final String FILE_DELETE_DELAY_MS = "file.delete.delay.ms";
    public static final String MIN_CLEANABLE_DIRTY_RATIO = "min.cleanable.dirty.ratio";
    public static final String CLEANUP_POLICY = "cleanup.policy";
    public static final String UNCLEAN_LEADER_ELECTION_ENABLE = "unclean.leader.election.enable";
    public static final String MIN_IN_SYNC_REPLICAS = "min.insync.replicas";
    public static final String COMPRESSION_TYPE = "compression.type";
    public static final String PREALLOCATE = "preallocate";
    public static final String MESSAGE_FORMAT_VERSION = "message.format.version";
    public static final String MESSAGE_TIMESTAMP_TYPE = "message.timestamp.type";
    public static final String MESSAGE_TIMESTAMP_DIFFERENCE_MAX_MS = "message.timestamp.difference.max.ms";
    public static final String MESSAGE_TIMESTAMP_BEFORE_MAX_MS = "message.timestamp.before.max.ms";
    public static final String MESSAGE_TIMESTAMP_AFTER_MAX_MS = "message.timestamp.after.max.ms";
    public static final String LEADER_REPLICATION_THROTTLED_REPLICAS = "leader.replication.throttled.replicas";
    public static final String FOLLOWER_REPLICATION_THROTTLED_REPLICAS = "follower.replication.throttled.replicas";
    public static final String MESSAGE_DOWNCONVERSION_ENABLE = "message.downconversion.enable";
    public static final String REMOTE_STORAGE_ENABLE = "remote.storage.enable";
    public static final String LOCAL_RETENTION_MS = "local.retention.ms";
    public static final String LOCAL_RETENTION_BYTES = "local.retention.bytes";

    /** {@code cleanup.policy} items. */
    public static final String DELETE = "delete";
    public static final String COMPACT = "compact";
    /** {@code message.timestamp.type} values. */
    public static final String CREATE_TIME = "CreateTime";
    public static final String LOG_APPEND_TIME = "LogAppendTime";

    private static final String MAX_LONG = Long.toString(Long.MAX_VALUE);
    private static final String WEEK_MS = Long.toString(7L * 24 * 60 * 60 * 1000);
    private static final String RETENTION_SWEEP = " Applied by the retention sweep (every KAAS_RETENTION_CHECK_INTERVAL_MS)"
            + " while cleanup.policy includes delete; the active segment is never deleted.";

    private static final Map<String, TopicConfigKey> KEYS = new LinkedHashMap<>();

    static {
        key(SEGMENT_BYTES, ConfigType.INT, Integer.toString(1024 * 1024 * 1024), Validator.atLeast(14),
                "log.segment.bytes", ENFORCED,
                "Size at which the active segment is closed and a new one begun. Retention removes whole segments,"
                        + " so this is also how finely old data is deleted.");
        key(SEGMENT_MS, ConfigType.LONG, WEEK_MS, Validator.atLeast(1), "log.roll.ms", ENFORCED,
                "Age after which the active segment is closed and a new one begun even if it is not full, so that"
                        + " time-based retention can reach old data in quiet partitions.");
        key(SEGMENT_JITTER_MS, ConfigType.LONG, "0", Validator.atLeast(0), "log.roll.jitter.ms", INERT,
                "A random amount taken off segment.ms for each segment, so that many partitions do not roll at"
                        + " once. Inert in kaas: segments roll exactly at segment.ms.");
        key(SEGMENT_INDEX_BYTES, ConfigType.INT, Integer.toString(10 * 1024 * 1024), Validator.atLeast(4),
                "log.index.size.max.bytes", INERT,
                "Maximum size of a segment's offset index; Apache Kafka rolls the segment when its index is full."
                        + " Inert in kaas: its sparse indexes are small tables kept in memory and written when a"
                        + " segment is sealed, and they never force a roll.");
        key(FLUSH_MESSAGES, ConfigType.LONG, MAX_LONG, Validator.atLeast(1), "log.flush.interval.messages", ENFORCED,
                "Forces an fsync once this many records have been appended since the last one. The broker default"
                        + " is KAAS_FLUSH_INTERVAL_MESSAGES; with 1, an acks=all produce is answered only after an"
                        + " fsync covers it. Concurrent appends share one fsync (group commit).");
        key(FLUSH_MS, ConfigType.LONG, MAX_LONG, Validator.atLeast(0), "log.flush.interval.ms", ENFORCED,
                "Forces an fsync when the last one is at least this old. kaas checks it whenever a batch is appended.");
        key(RETENTION_BYTES, ConfigType.LONG, "-1", null, "log.retention.bytes", ENFORCED,
                "Size a partition may reach before its oldest closed segments are deleted; -1 means no limit."
                        + RETENTION_SWEEP);
        key(RETENTION_MS, ConfigType.LONG, WEEK_MS, Validator.atLeast(-1), "log.retention.ms", ENFORCED,
                "How long a closed segment is kept after the newest timestamp in it; -1 keeps data forever."
                        + RETENTION_SWEEP);
        key(MAX_MESSAGE_BYTES, ConfigType.INT, Integer.toString(1024 * 1024 + 12), Validator.atLeast(0),
                "message.max.bytes", ENFORCED,
                "Largest record batch the topic accepts, in bytes; a larger produce gets MESSAGE_TOO_LARGE. The"
                        + " broker default is message.max.bytes (KAAS_MESSAGE_MAX_BYTES).");
        key(INDEX_INTERVAL_BYTES, ConfigType.INT, "4096", Validator.atLeast(0), "log.index.interval.bytes", ENFORCED,
                "Bytes of log between two entries of a segment's offset and time indexes: smaller makes lookups"
                        + " start closer to their target and the indexes larger. Applies to segments begun after a change.");
        key(DELETE_RETENTION_MS, ConfigType.LONG, Long.toString(24L * 60 * 60 * 1000), Validator.atLeast(0),
                "log.cleaner.delete.retention.ms", ENFORCED,
                "How long a compacted topic keeps delete markers (tombstones), so that slow consumers still see"
                        + " the deletion. As in Apache, the cleaning that first keeps a tombstone (or a transaction"
                        + " marker left without records) stamps its batch with a delete horizon (now plus this);"
                        + " a cleaning after the horizon drops it, record by record. As in Apache 3.7, only a"
                        + " cleaning does, and a cleaning needs new (dirty) data: a compacted log with no new writes"
                        + " keeps its tombstones past this.");
        key(MIN_COMPACTION_LAG_MS, ConfigType.LONG, "0", Validator.atLeast(0), "log.cleaner.min.compaction.lag.ms",
                ENFORCED, "The least time a record stays uncompacted: a segment holding a record younger than this"
                        + " is not cleaned yet.");
        key(MAX_COMPACTION_LAG_MS, ConfigType.LONG, MAX_LONG, Validator.atLeast(1), "log.cleaner.max.compaction.lag.ms",
                ENFORCED, "The most time a record may stay uncompacted: a log whose oldest dirty segment began"
                        + " longer ago is cleaned at the next pass whatever its dirty ratio.");
        key(FILE_DELETE_DELAY_MS, ConfigType.LONG, "60000", Validator.atLeast(0), "log.segment.delete.delay.ms",
                ENFORCED, "How long a segment removed by retention or DeleteRecords stays readable. kaas unlinks the"
                        + " file at once and keeps its open handle this long, so that fetches already reading it finish.");
        key(MIN_CLEANABLE_DIRTY_RATIO, ConfigType.DOUBLE, "0.5", Validator.between(0, 1),
                "log.cleaner.min.cleanable.ratio", ENFORCED,
                "Share of a compacted log that must be uncompacted before the cleaner works on it; the cleaner"
                        + " takes the log with the highest share first.");
        key(CLEANUP_POLICY, ConfigType.LIST, DELETE, Validator.listOf(COMPACT, DELETE), "log.cleanup.policy", ENFORCED,
                "What happens to old segments: 'delete' removes them as retention.ms and retention.bytes say,"
                        + " 'compact' keeps the newest record of each key (the log cleaner, every"
                        + " KAAS_LOG_CLEANER_BACKOFF_MS; disk storage only: memory mode keeps every record). A"
                        + " compacted topic refuses records without a key (INVALID_RECORD); a compact-only one refuses DeleteRecords (POLICY_VIOLATION).");
        key(UNCLEAN_LEADER_ELECTION_ENABLE, ConfigType.BOOLEAN, "false", null, "unclean.leader.election.enable", INERT,
                "Whether a replica that is not in sync may become leader, losing data. Inert in kaas: a partition"
                        + " has one log on shared storage, which a new leader takes over whole; there is no replica to"
                        + " fall behind.");
        key(MIN_IN_SYNC_REPLICAS, ConfigType.INT, "1", Validator.atLeast(1), "min.insync.replicas", INERT,
                "With acks=all, how many in-sync replicas must hold a write. Inert in kaas: each partition has one"
                        + " copy on storage that provides the redundancy, and acks=all means the batch was fsynced.");
        key(COMPRESSION_TYPE, ConfigType.STRING, "producer",
                Validator.oneOf("uncompressed", "zstd", "lz4", "snappy", "gzip", "producer"), "compression.type", INERT,
                "Codec the broker stores batches in; 'producer' keeps the producer's. Inert in kaas: the broker never"
                        + " decodes or re-encodes records, so batches are always stored as the producer compressed"
                        + " them, which is what 'producer' means.");
        key(PREALLOCATE, ConfigType.BOOLEAN, "false", null, "log.preallocate", INERT,
                "Whether a new segment file is allocated at full size up front. Inert in kaas: segment files grow as"
                        + " they are written.");
        key(MESSAGE_FORMAT_VERSION, ConfigType.STRING, "3.0-IV1", Validator.kafkaVersion(),
                "log.message.format.version", INERT,
                "Deprecated: the message format to store. Inert, as on every Apache Kafka 3.x broker: batches are"
                        + " stored in the v2 format they arrive in.");
        key(MESSAGE_TIMESTAMP_TYPE, ConfigType.STRING, CREATE_TIME, Validator.oneOf(CREATE_TIME, LOG_APPEND_TIME),
                "log.message.timestamp.type", ENFORCED,
                "CreateTime keeps the producer's timestamps; LogAppendTime stamps each batch with the broker's"
                        + " clock when it is appended. kaas does that by setting the batch header's timestamp type"
                        + " and max timestamp and recomputing its CRC; the records themselves are not touched.");
        key(MESSAGE_TIMESTAMP_DIFFERENCE_MAX_MS, ConfigType.LONG, MAX_LONG, Validator.atLeast(0),
                "log.message.timestamp.difference.max.ms", ENFORCED,
                "Deprecated: the largest difference allowed between a CreateTime timestamp and the broker's clock,"
                        + " in either direction. It stands in for message.timestamp.before.max.ms and"
                        + " message.timestamp.after.max.ms while those are at their defaults.");
        key(MESSAGE_TIMESTAMP_BEFORE_MAX_MS, ConfigType.LONG, MAX_LONG, Validator.atLeast(0),
                "log.message.timestamp.before.max.ms", ENFORCED,
                "How far before the broker's clock a CreateTime timestamp may be; an older one gets"
                        + " INVALID_TIMESTAMP. kaas checks the batch's first and largest timestamps, read from its"
                        + " header (records are not decoded).");
        key(MESSAGE_TIMESTAMP_AFTER_MAX_MS, ConfigType.LONG, MAX_LONG, Validator.atLeast(0),
                "log.message.timestamp.after.max.ms", ENFORCED,
                "How far after the broker's clock a CreateTime timestamp may be; a later one gets"
                        + " INVALID_TIMESTAMP. kaas checks the batch's first and largest timestamps, read from its"
                        + " header (records are not decoded).");
        key(LEADER_REPLICATION_THROTTLED_REPLICAS, ConfigType.LIST, "", Validator.throttledReplicas(), null, INERT,
                "Replicas ('*' or partition:broker pairs) whose replication is throttled on the leader's side."
                        + " Inert in kaas: there is no replication to throttle.");
        key(FOLLOWER_REPLICATION_THROTTLED_REPLICAS, ConfigType.LIST, "", Validator.throttledReplicas(), null, INERT,
                "Replicas ('*' or partition:broker pairs) whose replication is throttled on the follower's side."
                        + " Inert in kaas: there are no followers.");
        key(MESSAGE_DOWNCONVERSION_ENABLE, ConfigType.BOOLEAN, "true", null, "log.message.downconversion.enable", INERT,
                "Whether the broker may convert batches to older message formats for old consumers. Inert in kaas:"
                        + " it serves Fetch v4 and later only, which read the v2 format as stored.");
        key(REMOTE_STORAGE_ENABLE, ConfigType.BOOLEAN, "false", null, null, ENFORCED,
                "Whether the topic uses tiered (remote) storage. kaas has no remote tier yet, so true is refused,"
                        + " as an Apache broker without remote log storage refuses it.");
        key(LOCAL_RETENTION_MS, ConfigType.LONG, "-2", Validator.atLeast(-2), "log.local.retention.ms", INERT,
                "With tiered storage, how long data stays on local disk (-2: as retention.ms). Inert: kaas has no"
                        + " remote tier.");
        key(LOCAL_RETENTION_BYTES, ConfigType.LONG, "-2", Validator.atLeast(-2), "log.local.retention.bytes", INERT,
                "With tiered storage, how much data stays on local disk (-2: as retention.bytes). Inert: kaas has no"
                        + " remote tier.");
    }

    private TopicConfigKeys() {
    }

    private static void key(String name, ConfigType type, String defaultValue, Validator validator, String brokerDefault,
                            Support support, String documentation) {
        KEYS.put(name, new TopicConfigKey(name, type, defaultValue, validator, brokerDefault, support, documentation));
    }

    /** The key named {@code name}, if Apache Kafka 3.7 defines it. */
    public static Optional<TopicConfigKey> get(String name) {
        return Optional.ofNullable(KEYS.get(name));
    }

    /** The key, which must exist. */
    public static TopicConfigKey require(String name) {
        TopicConfigKey key = KEYS.get(name);
        if (key == null) {
            throw new IllegalArgumentException("not a topic config: " + name);
        }
        return key;
    }

    /** Every key, in Apache's definition order. */
    public static List<TopicConfigKey> all() {
        return List.copyOf(KEYS.values());
    }

    /** Every key name, sorted: the order DescribeConfigs and CreateTopics report them in. */
    public static List<String> sortedNames() {
        List<String> names = new ArrayList<>(KEYS.keySet());
        Collections.sort(names);
        return names;
    }

    /** Apache's default of every key, by name. */
    public static Map<String, String> apacheDefaults() {
        Map<String, String> defaults = new LinkedHashMap<>();
        KEYS.values().forEach(k -> defaults.put(k.name(), k.defaultValue()));
        return defaults;
    }
}
