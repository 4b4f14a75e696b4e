package io.kaas.domain.batch;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The LogAppendTime stamp: a header-only rewrite that leaves a valid batch and the records untouched. */
class RecordBatchHeaderLogAppendTimeTest {
    private static final long CREATE_BASE = 1_700_000_000_000L;
    private static final long CREATE_MAX = 1_700_000_000_500L;
    private static final long APPEND_TIME = 1_800_000_000_000L;

    @Test
    void setsTheTimestampTypeAndMaxTimestampAndKeepsTheCrcValid() {
        ByteBuffer batch = TestBatches.batch(3, CREATE_BASE, CREATE_MAX, TestBatches.records(40));
        RecordBatchHeader header = RecordBatchHeader.at(batch);
        long crcBefore = header.storedCrc();

        header.setLogAppendTime(APPEND_TIME);

        assertThat(header.isLogAppendTime()).isTrue();
        assertThat(header.maxTimestamp()).isEqualTo(APPEND_TIME);
        assertThat(header.storedCrc()).isEqualTo(header.computeCrc()).isNotEqualTo(crcBefore);
        assertThat(BatchValidator.validateProduced(batch)).isEmpty();
    }

    @Test
    void leavesTheBaseTimestampOtherAttributesAndRecordsAlone() {
        short gzipTransactional = (short) (0x01 | 0x10);
        byte[] records = TestBatches.records(64);
        ByteBuffer batch = TestBatches.batch(5, CREATE_BASE, CREATE_MAX, gzipTransactional, records);
        ByteBuffer before = copy(batch);

        RecordBatchHeader.at(batch).setLogAppendTime(APPEND_TIME);

        RecordBatchHeader header = RecordBatchHeader.at(batch);
        assertThat(header.baseTimestamp()).as("Apache leaves the base timestamp").isEqualTo(CREATE_BASE);
        assertThat(header.compressionCodec()).isEqualTo(1);
        assertThat(header.isTransactional()).isTrue();
        assertThat(header.recordsCount()).isEqualTo(5);
        assertThat(Arrays.copyOfRange(array(batch), RecordBatchHeader.HEADER_SIZE, batch.limit()))
                .as("the records are not touched").isEqualTo(records);
        // Only the crc (17..20), attributes (21..22) and max timestamp (35..42) changed.
        byte[] a = array(before);
        byte[] b = array(batch);
        for (int i = 0; i < a.length; i++) {
            boolean rewritten = (i >= RecordBatchHeader.CRC_OFFSET && i < RecordBatchHeader.LAST_OFFSET_DELTA_OFFSET)
                    || (i >= RecordBatchHeader.MAX_TIMESTAMP_OFFSET && i < RecordBatchHeader.PRODUCER_ID_OFFSET);
            if (!rewritten) {
                assertThat(b[i]).as("byte %d", i).isEqualTo(a[i]);
            }
        }
    }

    @Test
    void aBatchAlreadyStampedWithThatTimeIsNotRewritten() {
        ByteBuffer batch = TestBatches.batch(1, CREATE_BASE, CREATE_BASE, TestBatches.records(10));
        RecordBatchHeader.at(batch).setLogAppendTime(APPEND_TIME);
        ByteBuffer stamped = copy(batch);

        RecordBatchHeader.at(batch).setLogAppendTime(APPEND_TIME);

        assertThat(array(batch)).isEqualTo(array(stamped));
    }

    @Test
    void worksOnABatchInsideALargerBuffer() {
        ByteBuffer single = TestBatches.batch(2, CREATE_BASE, CREATE_MAX, TestBatches.records(20));
        ByteBuffer frame = ByteBuffer.allocate(single.remaining() + 30);
        frame.position(17);
        frame.put(single.duplicate());
        frame.position(17).limit(17 + single.remaining());
        ByteBuffer view = frame.slice();

        RecordBatchHeader.at(frame).setLogAppendTime(APPEND_TIME);

        assertThat(RecordBatchHeader.at(view).maxTimestamp()).isEqualTo(APPEND_TIME);
        assertThat(BatchValidator.validateProduced(view)).isEmpty();
        assertThat(frame.position()).as("the view never moves the position").isEqualTo(17);
    }

    private static ByteBuffer copy(ByteBuffer b) {
        ByteBuffer c = ByteBuffer.allocate(b.remaining());
        c.put(b.duplicate()).flip();
        return c;
    }

    private static byte[] array(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }
}
