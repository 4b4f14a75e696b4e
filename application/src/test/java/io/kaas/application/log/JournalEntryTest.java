package io.kaas.application.log;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.domain.log.SegmentName;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A journal file is read up to its first entry that is torn or not its own: a recycled file still holds the
 * entries of the file it was, intact and CRC-valid, right after the ones written since.
 */
class JournalEntryTest {
    private static final Path PARTITION = Path.of("/data/orders/0");

    @Test
    void aFileIsReadUpToTheFirstEntryOfAnotherFile() {
        byte[] file = concat(encode(entry("a", 0), 7), encode(entry("b", 40), 7), encode(entry("stale", 80), 6),
                encode(entry("c", 120), 7));

        List<JournalEntry> read = JournalEntry.readAll(file, 7);

        assertThat(read).extracting(JournalEntry::position).containsExactly(0, 40);
        assertThat(read).extracting(e -> StandardCharsets.UTF_8.decode(e.batch()).toString())
                .containsExactly("a", "b");
        assertThat(read.get(0).segment()).isEqualTo(new SegmentName(3, 100L));
        assertThat(read.get(0).partitionDir()).isEqualTo(PARTITION);
    }

    @Test
    void zerosAndATornEntryEndTheFile() {
        byte[] written = encode(entry("kept", 0), 2);
        byte[] torn = encode(entry("torn", 64), 2);
        torn[torn.length - 1] ^= 1;

        assertThat(JournalEntry.readAll(concat(written, new byte[64]), 2)).hasSize(1);
        assertThat(JournalEntry.readAll(concat(written, torn, encode(entry("after", 128), 2)), 2)).hasSize(1);
    }

    @Test
    void aVoidedEntryKeepsItsPlaceAndItsFile() {
        JournalEntry batch = entry("refused", 0);
        byte[] voided = concat(bytes(batch.voided().header(5)), bytes(batch.batch()), encode(entry("next", 30), 5));

        assertThat(JournalEntry.readAll(voided, 5)).extracting(JournalEntry::kind)
                .containsExactly(JournalEntry.Kind.VOID, JournalEntry.Kind.BATCH);
    }

    private static JournalEntry entry(String content, int position) {
        return JournalEntry.batch(PARTITION, new SegmentName(3, 100L), position,
                ByteBuffer.wrap(content.getBytes(StandardCharsets.UTF_8)));
    }

    private static byte[] encode(JournalEntry entry, long fileSeq) {
        return concat(bytes(entry.header(fileSeq)), bytes(entry.batch()));
    }

    private static byte[] bytes(ByteBuffer buffer) {
        byte[] out = new byte[buffer.remaining()];
        buffer.duplicate().get(out);
        return out;
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }
}
