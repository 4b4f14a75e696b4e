package io.kaas.domain.batch;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

class RecordBatchHeaderTest {
    private static final int RECORD_BYTES = 20;

    /**
     * A v2 batch written field by field in the documented order, independent of the class's offset
     * constants, with its CRC32C computed here over bytes 21..end.
     */
    private static ByteBuffer handMadeBatch(int attributes, int lastOffsetDelta, int baseSequence) {
        int size = 61 + RECORD_BYTES;
        ByteBuffer buf = ByteBuffer.allocate(size);
        buf.putLong(1234L);                    //  0 baseOffset
        buf.putInt(size - 12);                 //  8 batchLength
        buf.putInt(7);                         // 12 partitionLeaderEpoch
        buf.put((byte) 2);                     // 16 magic
        buf.putInt(0);                         // 17 crc (below)
        buf.putShort((short) attributes);      // 21 attributes
        buf.putInt(lastOffsetDelta);           // 23 lastOffsetDelta
        buf.putLong(1_700_000_000_000L);       // 27 baseTimestamp
        buf.putLong(1_700_000_000_500L);       // 35 maxTimestamp
        buf.putLong(98_765L);                  // 43 producerId
        buf.putShort((short) 3);               // 51 producerEpoch
        buf.putInt(baseSequence);              // 53 baseSequence
        buf.putInt(lastOffsetDelta + 1);       // 57 recordsCount
        assertThat(buf.position()).isEqualTo(61);
        for (int i = 0; i < RECORD_BYTES; i++) {
            buf.put((byte) (0xA0 + i));
        }
        buf.putInt(17, (int) crc32c(buf, 21, size));
        return buf.flip();
    }

    private static long crc32c(ByteBuffer buf, int from, int to) {
        CRC32C crc = new CRC32C();
        crc.update(buf.array(), from, to - from);
        return crc.getValue();
    }

    @Test
    void readsEveryHeaderField() {
        ByteBuffer buf = handMadeBatch(0x08 | 0x10 | 3, 4, 40);
        RecordBatchHeader h = RecordBatchHeader.at(buf);

        assertThat(h.baseOffset()).isEqualTo(1234L);
        assertThat(h.batchLength()).isEqualTo(61 + RECORD_BYTES - 12);
        assertThat(h.sizeInBytes()).isEqualTo(61 + RECORD_BYTES);
        assertThat(h.partitionLeaderEpoch()).isEqualTo(7);
        assertThat(h.magic()).isEqualTo((byte) 2);
        assertThat(h.storedCrc()).isEqualTo(crc32c(buf, 21, buf.limit()));
        assertThat(h.attributes()).isEqualTo((short) 0x1B);
        assertThat(h.compressionCodec()).isEqualTo(3);
        assertThat(h.isLogAppendTime()).isTrue();
        assertThat(h.isTransactional()).isTrue();
        assertThat(h.isControlBatch()).isFalse();
        assertThat(h.lastOffsetDelta()).isEqualTo(4);
        assertThat(h.lastOffset()).isEqualTo(1238L);
        assertThat(h.baseTimestamp()).isEqualTo(1_700_000_000_000L);
        assertThat(h.maxTimestamp()).isEqualTo(1_700_000_000_500L);
        assertThat(h.producerId()).isEqualTo(98_765L);
        assertThat(h.hasProducerId()).isTrue();
        assertThat(h.producerEpoch()).isEqualTo((short) 3);
        assertThat(h.baseSequence()).isEqualTo(40);
        assertThat(h.lastSequence()).isEqualTo(44);
        assertThat(h.recordsCount()).isEqualTo(5);
    }

    @Test
    void attributeBitsAreIndependent() {
        RecordBatchHeader control = RecordBatchHeader.at(handMadeBatch(0x20, 0, 0));
        assertThat(control.isControlBatch()).isTrue();
        assertThat(control.isTransactional()).isFalse();
        assertThat(control.isLogAppendTime()).isFalse();
        assertThat(control.compressionCodec()).isZero();

        assertThat(RecordBatchHeader.at(handMadeBatch(4, 0, 0)).compressionCodec()).isEqualTo(4);
    }

    @Test
    void noProducerIdIsMinusOne() {
        ByteBuffer buf = handMadeBatch(0, 0, -1);
        buf.putLong(43, -1L);
        assertThat(RecordBatchHeader.at(buf).hasProducerId()).isFalse();
    }

    @Test
    void storedCrcIsReadUnsigned() {
        ByteBuffer buf = handMadeBatch(0, 0, 0);
        buf.putInt(17, 0xFFFF_FFFF);
        assertThat(RecordBatchHeader.at(buf).storedCrc()).isEqualTo(0xFFFF_FFFFL);
    }

    @Test
    void lastSequenceWrapsPastIntegerMaxValue() {
        assertThat(RecordBatchHeader.at(handMadeBatch(0, 0, Integer.MAX_VALUE)).lastSequence())
                .isEqualTo(Integer.MAX_VALUE);
        assertThat(RecordBatchHeader.at(handMadeBatch(0, 1, Integer.MAX_VALUE)).lastSequence()).isZero();
        assertThat(RecordBatchHeader.at(handMadeBatch(0, 3, Integer.MAX_VALUE - 1)).lastSequence()).isEqualTo(1);
    }

    @Test
    void computedCrcMatchesStoredCrcAndCoversAttributesToEnd() {
        ByteBuffer buf = handMadeBatch(0, 4, 0);
        RecordBatchHeader h = RecordBatchHeader.at(buf);
        assertThat(h.computeCrc()).isEqualTo(h.storedCrc());

        buf.put(buf.limit() - 1, (byte) 0); // last record byte
        assertThat(h.computeCrc()).isNotEqualTo(h.storedCrc());

        ByteBuffer attributesChanged = handMadeBatch(0, 4, 0);
        attributesChanged.put(22, (byte) 1);
        RecordBatchHeader h2 = RecordBatchHeader.at(attributesChanged);
        assertThat(h2.computeCrc()).isNotEqualTo(h2.storedCrc());
    }

    @Test
    void rewritingBaseOffsetAndLeaderEpochKeepsTheCrcValid() {
        ByteBuffer buf = handMadeBatch(0, 4, 0);
        ByteBuffer before = ByteBuffer.allocate(buf.remaining()).put(buf.duplicate()).flip();
        RecordBatchHeader h = RecordBatchHeader.at(buf);

        h.setBaseOffset(5_000_000_000L);
        h.setPartitionLeaderEpoch(42);

        assertThat(h.baseOffset()).isEqualTo(5_000_000_000L);
        assertThat(h.lastOffset()).isEqualTo(5_000_000_004L);
        assertThat(h.partitionLeaderEpoch()).isEqualTo(42);
        assertThat(h.computeCrc()).isEqualTo(h.storedCrc());
        // only bytes 0..7 and 12..15 changed
        for (int i = 0; i < buf.limit(); i++) {
            if (i >= 8 && i < 12 || i >= 16) {
                assertThat(buf.get(i)).as("byte %d", i).isEqualTo(before.get(i));
            }
        }
    }

    @Test
    void viewReadsAtThePositionOrIndexAndNeverMovesThePosition() {
        ByteBuffer batch = handMadeBatch(0, 4, 9);
        ByteBuffer framed = ByteBuffer.allocate(5 + batch.remaining() + 7);
        framed.put(new byte[] {9, 9, 9, 9, 9}).put(batch.duplicate()).put(new byte[] {1, 2, 3, 4, 5, 6, 7});
        framed.position(5);

        RecordBatchHeader h = RecordBatchHeader.at(framed);
        assertThat(h.baseOffset()).isEqualTo(1234L);
        assertThat(h.baseSequence()).isEqualTo(9);
        assertThat(h.computeCrc()).as("trailing bytes are not covered").isEqualTo(h.storedCrc());
        h.setBaseOffset(1L);
        assertThat(framed.position()).isEqualTo(5);
        assertThat(framed.get(4)).as("bytes before the batch untouched").isEqualTo((byte) 9);

        framed.position(0);
        RecordBatchHeader byIndex = RecordBatchHeader.at(framed, 5);
        assertThat(byIndex.baseOffset()).isEqualTo(1L);
        assertThat(byIndex.computeCrc()).isEqualTo(byIndex.storedCrc());
        assertThat(framed.position()).isZero();
    }
}
