package io.kaas.application.fake;

import io.kaas.application.port.out.BatchRecordSearch;
import io.kaas.domain.batch.RecordBatchHeader;
import java.nio.ByteBuffer;
import java.util.Optional;

/**
 * A {@link BatchRecordSearch} for test batches, whose record sections are filler: it reads only the
 * header of the batch it is given and stamps record {@code i} with {@code baseTimestamp + i}, the last
 * record with the max timestamp (so a batch whose base and max timestamps are equal stamps every record
 * alike, as a LogAppendTime batch does). A wrong batch handed to it answers wrong offsets, so tests
 * still see which batch the log read.
 */
public final class HeaderStampedRecords implements BatchRecordSearch {

    @Override
    public Optional<RecordStamp> firstAtOrAfter(ByteBuffer batch, long timestamp, long minOffset) {
        RecordBatchHeader header = RecordBatchHeader.at(batch, batch.position());
        if (batch.remaining() != header.sizeInBytes()) {
            throw new IllegalArgumentException("not one whole batch: " + batch.remaining() + " bytes for "
                    + header.sizeInBytes());
        }
        int last = header.lastOffsetDelta();
        for (int i = 0; i <= last; i++) {
            long stamp = i == last ? header.maxTimestamp() : Math.min(header.baseTimestamp() + i, header.maxTimestamp());
            long offset = header.baseOffset() + i;
            if (stamp >= timestamp && offset >= minOffset) {
                return Optional.of(new RecordStamp(offset, stamp));
            }
        }
        return Optional.empty();
    }
}
