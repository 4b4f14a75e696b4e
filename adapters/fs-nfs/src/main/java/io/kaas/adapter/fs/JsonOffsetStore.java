package io.kaas.adapter.fs;

import io.kaas.application.port.out.OffsetStore;
import io.kaas.domain.group.CommittedOffset;
import io.kaas.domain.group.GroupSnapshot;
import io.kaas.domain.topic.TopicIds;
import io.kaas.domain.topic.TopicPartition;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Committed offsets as one JSON file per group, {@code __cluster/__consumer_offsets/<group>.json}
 * (names encoded by {@link GroupFileNames}): kaas's replacement for the {@code __consumer_offsets}
 * topic. Each save replaces the whole file atomically and durably (temp file, fsync, rename,
 * directory fsync), so a reader or a crash sees the previous content or the new one.
 */
public final class JsonOffsetStore implements OffsetStore {
    private final Path dir;
    private final JsonFiles files;

    public JsonOffsetStore(DataLayout layout, JsonFiles files) {
        this.dir = layout.consumerOffsetsDir();
        this.files = files;
    }

    @Override
    public Optional<StoredGroup> load(String groupId) {
        return files.read(dir.resolve(GroupFileNames.fileName(groupId)), GroupFile.class).map(GroupFile::toStored);
    }

    @Override
    public void save(StoredGroup group) {
        files.write(dir.resolve(GroupFileNames.fileName(group.groupId())), GroupFile.of(group));
    }

    @Override
    public void delete(String groupId) {
        files.delete(dir.resolve(GroupFileNames.fileName(groupId)));
    }

    @Override
    public List<String> groupIds() {
        List<String> ids = new ArrayList<>();
        for (String name : files.list(dir)) {
            if (GroupFileNames.isGroupFile(name)) {
                GroupFileNames.groupId(name)
                        .or(() -> files.read(dir.resolve(name), GroupFile.class).map(GroupFile::groupId))
                        .ifPresent(ids::add);
            }
        }
        return ids;
    }

    /**
     * The file's content; {@code pendingTransactional} (absent in files written before transactions)
     * holds the offsets staged by transactions that have not ended, per producer id; {@code membership}
     * (absent when the group has no stable generation) the generation a restarted coordinator resumes.
     */
    record GroupFile(String groupId, String protocolType, List<OffsetEntry> offsets,
                     List<StagedOffsets> pendingTransactional, Membership membership) {
        static GroupFile of(StoredGroup group) {
            List<StagedOffsets> staged = new ArrayList<>();
            group.pendingTransactional().forEach((pid, offsets) -> staged.add(new StagedOffsets(pid, entries(offsets))));
            staged.sort(Comparator.comparingLong(StagedOffsets::producerId));
            return new GroupFile(group.groupId(), group.protocolType(), entries(group.offsets()), staged,
                    group.membership() == null ? null : Membership.of(group.membership()));
        }

        StoredGroup toStored() {
            Map<Long, Map<TopicPartition, CommittedOffset>> pending = new LinkedHashMap<>();
            if (pendingTransactional != null) {
                pendingTransactional.forEach(s -> pending.put(s.producerId(), toMap(s.offsets())));
            }
            return new StoredGroup(groupId, protocolType, toMap(offsets), pending,
                    membership == null ? null : membership.toSnapshot());
        }

        private static List<OffsetEntry> entries(Map<TopicPartition, CommittedOffset> offsets) {
            List<OffsetEntry> entries = new ArrayList<>();
            offsets.entrySet().stream()
                    .sorted(Map.Entry.comparingByKey(Comparator.comparing(TopicPartition::topic)
                            .thenComparingInt(TopicPartition::partition)))
                    .forEach(e -> entries.add(OffsetEntry.of(e.getKey(), e.getValue())));
            return entries;
        }

        private static Map<TopicPartition, CommittedOffset> toMap(List<OffsetEntry> entries) {
            Map<TopicPartition, CommittedOffset> map = new LinkedHashMap<>();
            if (entries != null) {
                entries.forEach(e -> map.put(new TopicPartition(e.topic(), e.partition()), e.toCommitted()));
            }
            return map;
        }
    }

    /** The group's stable generation; byte arrays are written as base64. */
    record Membership(int generationId, String protocolType, String protocolName, String leaderId,
                      List<GroupSnapshot.Member> members) {
        static Membership of(GroupSnapshot s) {
            return new Membership(s.generationId(), s.protocolType(), s.protocolName(), s.leaderId(), s.members());
        }

        GroupSnapshot toSnapshot() {
            return new GroupSnapshot(generationId, protocolType, protocolName, leaderId, members);
        }
    }

    /** Offsets one producer's transaction staged (TxnOffsetCommit). */
    record StagedOffsets(long producerId, List<OffsetEntry> offsets) {
    }

    /**
     * One committed offset; {@code topicId} is Kafka's base64 form of the topic's id;
     * {@code expireTimestampMs} is absent (null) unless the commit carried its own retention time.
     */
    record OffsetEntry(String topic, int partition, long offset, int leaderEpoch, String metadata,
                       long commitTimestampMs, Long expireTimestampMs, String topicId) {
        static OffsetEntry of(TopicPartition tp, CommittedOffset c) {
            return new OffsetEntry(tp.topic(), tp.partition(), c.offset(), c.leaderEpoch(), c.metadata(),
                    c.commitTimestampMs(),
                    c.expireTimestampMs() == CommittedOffset.NO_EXPIRE_TIMESTAMP ? null : c.expireTimestampMs(),
                    c.topicId() == null ? null : TopicIds.toBase64(c.topicId()));
        }

        CommittedOffset toCommitted() {
            return new CommittedOffset(offset, leaderEpoch, metadata, commitTimestampMs,
                    expireTimestampMs == null ? CommittedOffset.NO_EXPIRE_TIMESTAMP : expireTimestampMs,
                    topicId == null ? null : TopicIds.fromBase64(topicId));
        }
    }
}
