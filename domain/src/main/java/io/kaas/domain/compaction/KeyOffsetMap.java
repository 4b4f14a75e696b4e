package io.kaas.domain.compaction;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.Map;

/**
 * The log cleaner's offset map, as Apache's {@code SkimpyOffsetMap}: for each key of the dirty part
 * of a log, the offset of its latest record, keyed by the MD5 digest of the key (collisions are as
 * unlikely as Apache accepts), and the last offset the map covers. It holds at most
 * {@code capacity} keys: a cleaning that fills it stops building there and cleans up to that point.
 */
public final class KeyOffsetMap {
    private final int capacity;
    private final Map<Digest, Long> offsets = new HashMap<>();
    private final MessageDigest md5;
    private long latestOffset = -1L;

    public KeyOffsetMap(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("an offset map holds at least one key");
        }
        this.capacity = capacity;
        try {
            md5 = MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has MD5", e);
        }
    }

    private record Digest(long high, long low) {
    }

    /**
     * Records {@code offset} as the latest of {@code key}; false, recording nothing, when the map is
     * full and the key is new.
     */
    public boolean put(ByteBuffer key, long offset) {
        Digest digest = digest(key);
        if (offsets.size() >= capacity && !offsets.containsKey(digest)) {
            return false;
        }
        offsets.put(digest, offset);
        return true;
    }

    /** The latest offset of {@code key}, or -1 when the map does not hold it. */
    public long get(ByteBuffer key) {
        Long offset = offsets.get(digest(key));
        return offset == null ? -1L : offset;
    }

    /** The map covers every record up to {@code offset}. */
    public void updateLatestOffset(long offset) {
        latestOffset = Math.max(latestOffset, offset);
    }

    /** The last offset the map covers; records past it are newer than anything it knows. */
    public long latestOffset() {
        return latestOffset;
    }

    public int size() {
        return offsets.size();
    }

    private Digest digest(ByteBuffer key) {
        md5.reset();
        md5.update(key.duplicate());
        ByteBuffer hash = ByteBuffer.wrap(md5.digest());
        return new Digest(hash.getLong(), hash.getLong());
    }
}
