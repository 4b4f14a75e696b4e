package io.kaas.domain.batch;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import org.apache.kafka.common.record.ControlRecordType;
import org.apache.kafka.common.record.EndTransactionMarker;
import org.apache.kafka.common.record.MemoryRecords;
import org.apache.kafka.common.record.RecordBatch;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class ControlBatchTest {

    @ParameterizedTest(name = "{0}, producer {1} epoch {2}, coordinator epoch {3}")
    @CsvSource({
        "COMMIT, 2199023255552, 0, 0, 1700000000000",
        "ABORT, 2199023255553, 7, 3, 1700000000123",
        "COMMIT, 9223372036854775807, 32766, 2147483647, 0",
        "ABORT, 1, 32767, 1000000, 1",
    })
    void isByteForByteWhatKafkaClientsBuilds(ControlBatch.Type type, long pid, short epoch, int coordinatorEpoch,
                                             long timestamp) {
        ControlRecordType apacheType = type == ControlBatch.Type.COMMIT ? ControlRecordType.COMMIT : ControlRecordType.ABORT;
        MemoryRecords apache = MemoryRecords.withEndTransactionMarker(0L, timestamp,
                RecordBatch.NO_PARTITION_LEADER_EPOCH, pid, epoch, new EndTransactionMarker(apacheType, coordinatorEpoch));

        ByteBuffer ours = ControlBatch.encode(pid, epoch, coordinatorEpoch, type, timestamp);

        assertThat(bytes(ours)).isEqualTo(bytes(apache.buffer()));
        RecordBatchHeader header = RecordBatchHeader.at(ours);
        assertThat(header.isControlBatch()).isTrue();
        assertThat(header.isTransactional()).isTrue();
        assertThat(header.computeCrc()).isEqualTo(header.storedCrc());
    }

    @Test
    void decodesWhatItEncodes() {
        ByteBuffer commit = ControlBatch.encode(42L, (short) 3, 9, ControlBatch.Type.COMMIT, 5L);
        ByteBuffer abort = ControlBatch.encode(42L, (short) 3, 11, ControlBatch.Type.ABORT, 5L);

        assertThat(ControlBatch.decode(commit)).contains(new ControlBatch.Marker(ControlBatch.Type.COMMIT, 9));
        assertThat(ControlBatch.decode(abort)).contains(new ControlBatch.Marker(ControlBatch.Type.ABORT, 11));
        assertThat(commit.position()).as("decoding does not move the buffer").isZero();
    }

    @Test
    void decodesKafkaClientsMarkers() {
        MemoryRecords apache = MemoryRecords.withEndTransactionMarker(0L, 1L, 0, 7L, (short) 1,
                new EndTransactionMarker(ControlRecordType.ABORT, 4));

        assertThat(ControlBatch.decode(apache.buffer())).contains(new ControlBatch.Marker(ControlBatch.Type.ABORT, 4));
    }

    @Test
    void aDataBatchOrAnEmptyControlBatchIsNoMarker() {
        assertThat(ControlBatch.decode(TestBatches.plain(1))).isEmpty();
        assertThat(ControlBatch.decode(TestBatches.batch().control().records(1).build())).as("garbage record").isEmpty();
        assertThat(ControlBatch.decode(TestBatches.batch().control().records(0).recordsCount(0).build())).isEmpty();
    }

    private static byte[] bytes(ByteBuffer buffer) {
        byte[] out = new byte[buffer.remaining()];
        buffer.duplicate().get(out);
        return out;
    }
}
