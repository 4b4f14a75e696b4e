package io.kaas.application.log;

import io.kaas.domain.log.SegmentName;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * One record of the {@link LogJournal}, about one partition (by its directory):
 * <ul>
 *   <li>{@link Kind#BATCH}: a batch as it goes into the partition's segment, at that byte position;</li>
 *   <li>{@link Kind#VOID}: a batch entry overwritten in place because the segment write after it failed, so a
 *       replay never brings back a batch the log refused (in place: no new bytes, so a full disk cannot stop it);</li>
 *   <li>{@link Kind#TOMBSTONE}: the partition's directory was deleted, so earlier batches of it must never be
 *       written back (a topic re-created under the same name gets a directory of that name again).</li>
 * </ul>
 *
 * <p>On disk: {@code length (int) | crc32c of the rest (int) | file sequence number (long) | kind (byte) | path
 * length (short) | path (UTF-8)}, then but for a tombstone {@code segment epoch (int) | segment base offset (long) |
 * position (int)}, then the batch bytes of a batch (kept by a void one, which only changes the kind and the CRC). A
 * reader stops at the first entry that is short, fails its CRC, or names another file's sequence number: the torn
 * tail of a crash, or what a recycled file held before (see {@link LogJournal}).
 *
 * @param segment  null for a tombstone
 * @param batch    empty for a tombstone
 */
record JournalEntry(Kind kind, Path partitionDir, SegmentName segment, int position, ByteBuffer batch) {
    enum Kind { BATCH, VOID, TOMBSTONE }

    /** length and crc */
    private static final int PREFIX = 8;

    static JournalEntry batch(Path partitionDir, SegmentName segment, int position, ByteBuffer batch) {
        return new JournalEntry(Kind.BATCH, partitionDir, segment, position, batch);
    }

    /** This batch entry as a void one: same size, so it can overwrite it in place. */
    JournalEntry voided() {
        return new JournalEntry(Kind.VOID, partitionDir, segment, position, batch);
    }

    static JournalEntry tombstone(Path partitionDir) {
        return new JournalEntry(Kind.TOMBSTONE, partitionDir, null, -1, ByteBuffer.allocate(0));
    }

    boolean isTombstone() {
        return kind == Kind.TOMBSTONE;
    }

    /** Everything but the batch bytes, which follow it on disk, as journal file {@code fileSeq} holds it. */
    ByteBuffer header(long fileSeq) {
        byte[] path = partitionDir.toString().getBytes(StandardCharsets.UTF_8);
        int fields = 8 + 1 + 2 + path.length + (isTombstone() ? 0 : 4 + 8 + 4);
        ByteBuffer header = ByteBuffer.allocate(PREFIX + fields);
        header.putInt(fields + batch.remaining()).putInt(0).putLong(fileSeq).put((byte) kind.ordinal())
                .putShort((short) path.length).put(path);
        if (!isTombstone()) {
            header.putInt(segment.epoch()).putLong(segment.baseOffset()).putInt(position);
        }
        CRC32C crc = new CRC32C();
        crc.update(header.array(), PREFIX, fields);
        crc.update(batch.duplicate());
        header.putInt(4, (int) crc.getValue());
        return header.flip();
    }

    /** The entries of journal file {@code fileSeq}, in order, up to the first torn, corrupt or stale one. */
    static List<JournalEntry> readAll(byte[] file, long fileSeq) {
        List<JournalEntry> entries = new ArrayList<>();
        ByteBuffer in = ByteBuffer.wrap(file);
        while (in.remaining() >= PREFIX) {
            int length = in.getInt();
            int crc = in.getInt();
            if (length < 8 + 3 || length > in.remaining()) {
                break;
            }
            CRC32C actual = new CRC32C();
            actual.update(file, in.position(), length);
            if ((int) actual.getValue() != crc) {
                break;
            }
            ByteBuffer body = in.slice(in.position(), length);
            in.position(in.position() + length);
            if (body.getLong() != fileSeq) {
                break;
            }
            entries.add(decode(body));
        }
        return entries;
    }

    /** After the sequence number. */
    private static JournalEntry decode(ByteBuffer body) {
        Kind kind = Kind.values()[body.get()];
        byte[] path = new byte[body.getShort()];
        body.get(path);
        Path dir = Path.of(new String(path, StandardCharsets.UTF_8));
        if (kind == Kind.TOMBSTONE) {
            return tombstone(dir);
        }
        SegmentName segment = new SegmentName(body.getInt(), body.getLong());
        int position = body.getInt();
        return new JournalEntry(kind, dir, segment, position, body.slice());
    }
}
