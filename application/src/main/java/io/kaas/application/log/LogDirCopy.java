package io.kaas.application.log;

import io.kaas.application.port.out.Filesystem;
import io.kaas.application.port.out.Filesystem.FileHandle;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/**
 * The copy half of a partition's move between log dirs. While the partition is served, {@link #copySealed} copies
 * its sealed segments, whose files no longer change: a cleaning or retention replaces or removes a segment, never
 * edits one, so a segment still in the log at the switch is still the one copied. Under the switch, with the log
 * closed, {@link #copyRest} copies everything else (the active segment, the segments sealed or rewritten meanwhile,
 * the state files) and removes from the target what the source no longer has. Each file is fsynced, then the target
 * directory: the copy is durable before the placement record names it.
 */
final class LogDirCopy {
    private static final int CHUNK = 1 << 20;

    private final Filesystem fs;
    private final PartitionFiles source;
    private final PartitionFiles target;
    private final Set<Segment> copied = Collections.newSetFromMap(new IdentityHashMap<>());
    private volatile long copiedBytes;
    private volatile long copiedThroughOffset;

    LogDirCopy(Filesystem fs, PartitionFiles source, PartitionFiles target) {
        this.fs = fs;
        this.source = source;
        this.target = target;
    }

    /** Copies the sealed segments not copied yet; a segment whose files went meanwhile is left to {@link #copyRest}. */
    void copySealed(List<Segment> sealed) throws IOException {
        for (Segment segment : sealed) {
            if (copied.contains(segment)) {
                continue;
            }
            try {
                for (Path file : source.segmentFiles(segment.name)) {
                    copyIfPresent(file);
                }
            } catch (NoSuchFileException gone) {
                continue; // removed by retention or replaced by a cleaning: the final listing decides
            }
            copied.add(segment);
            copiedThroughOffset = Math.max(copiedThroughOffset, segment.nextOffset());
        }
    }

    /**
     * With the log closed: copies every file of the source not copied as part of a segment still in the log,
     * removes target files the source does not have, and makes the target directory durable.
     */
    void copyRest(List<Segment> segments) throws IOException {
        Set<String> unchanged = new HashSet<>();
        for (Segment segment : segments) {
            if (copied.contains(segment)) {
                source.segmentFiles(segment.name).forEach(file -> unchanged.add(file.getFileName().toString()));
            }
        }
        Set<String> wanted = new HashSet<>();
        for (String name : fs.list(source.dir())) {
            if (isPartitionFile(name)) {
                wanted.add(name);
                if (!unchanged.contains(name)) {
                    copyIfPresent(source.dir().resolve(name));
                }
            }
        }
        for (String name : fs.list(target.dir())) {
            if (isPartitionFile(name) && !wanted.contains(name)) {
                fs.delete(target.dir().resolve(name));
            }
        }
        fs.fsyncDirectory(target.dir());
    }

    /** Bytes copied so far, for DescribeLogDirs' future replica. */
    long copiedBytes() {
        return copiedBytes;
    }

    /** The offset the copied sealed segments reach: the future replica's log end. */
    long copiedThroughOffset() {
        return copiedThroughOffset;
    }

    /**
     * A partition's own files: not the placement records, temp files or a cleaning's unswapped output (the
     * recovery of the target removes those, as the source's would).
     */
    private static boolean isPartitionFile(String name) {
        return !PartitionState.Placement.isRecord(name) && !name.equals(PartitionPlacements.MOVE)
                && !name.startsWith(".") && !PartitionFiles.isCleaned(name);
    }

    private void copyIfPresent(Path file) throws IOException {
        if (!fs.exists(file)) {
            return; // a segment's optional files (an index not written yet, no aborted transaction)
        }
        Path to = target.dir().resolve(file.getFileName());
        try (FileHandle in = fs.open(file, false); FileHandle out = fs.open(to, true)) {
            out.truncate(0);
            ByteBuffer chunk = ByteBuffer.allocate(CHUNK);
            long position = 0;
            while (true) {
                chunk.clear();
                int read = in.read(chunk, position);
                if (read <= 0) {
                    break;
                }
                chunk.flip();
                out.write(chunk, position);
                position += read;
            }
            out.force();
            copiedBytes += position;
        }
    }
}
