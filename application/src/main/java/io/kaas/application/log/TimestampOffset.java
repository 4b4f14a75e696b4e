package io.kaas.application.log;

import io.kaas.application.port.out.BatchRecordSearch.RecordStamp;

/** An offset found by timestamp, with the timestamp it was found by. */
public record TimestampOffset(long timestamp, long offset) {

    static TimestampOffset of(RecordStamp record) {
        return new TimestampOffset(record.timestamp(), record.offset());
    }
}
