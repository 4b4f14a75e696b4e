package io.kaas.application.log;

import io.kaas.application.port.out.Filesystem;
import io.kaas.application.port.out.JsonCodec;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.error.KafkaException;
import io.kaas.domain.topic.TopicPartition;
import java.io.IOException;
import java.util.Optional;

/**
 * Notices that a newer leader took a partition over: its takeover wrote the manifest with a higher
 * epoch before its first write. The log asks before each rare step that would touch files a new
 * leader relies on (starting a segment, writing the producer snapshot, checkpoint, index files or
 * manifest, unlinking), so a deposed leader stops there rather than overwriting the new leader's
 * state. Once tripped it stays tripped: appends carrying the old epoch are refused from then on.
 */
final class TakeoverFence {
    private final Filesystem fs;
    private final JsonCodec codec;
    private final PartitionFiles files;
    private final TopicPartition topicPartition;
    private final int epoch;
    private volatile int newerEpoch = -1;

    TakeoverFence(Filesystem fs, JsonCodec codec, PartitionFiles files, TopicPartition topicPartition, int epoch) {
        this.fs = fs;
        this.codec = codec;
        this.files = files;
        this.topicPartition = topicPartition;
        this.epoch = epoch;
    }

    /** Reads the manifest on the volume: whether a leader with a higher epoch has taken over. */
    boolean check() throws IOException {
        if (tripped()) {
            return true;
        }
        Optional<byte[]> manifest = fs.readAll(files.manifest());
        if (manifest.isPresent()) {
            int onDisk;
            try {
                onDisk = codec.decode(manifest.get(), PartitionState.Manifest.class).epoch();
            } catch (IOException unreadable) {
                return false; // renamed into place whole, so never torn; a foreign file proves no takeover
            }
            if (onDisk > epoch) {
                newerEpoch = onDisk;
            }
        }
        return tripped();
    }

    /** Whether a {@link #check} saw a newer leader; reads nothing. */
    boolean tripped() {
        return newerEpoch > epoch;
    }

    /** The answer for a write this fence refuses. */
    KafkaException notLeader() {
        return new KafkaException(KafkaError.NOT_LEADER_OR_FOLLOWER, topicPartition + " was taken over at leader epoch "
                + newerEpoch + "; this broker led it at epoch " + epoch);
    }
}
