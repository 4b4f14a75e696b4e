package io.kaas.adapter.wire.codec;

import io.kaas.application.port.in.FetchedRecords;
import java.io.IOException;
import org.apache.kafka.common.network.TransferableChannel;
import org.apache.kafka.common.record.DefaultRecordsSend;
import org.apache.kafka.common.record.RecordsSend;
import org.apache.kafka.common.record.TransferableRecords;

/**
 * A Fetch response's records as a region of a segment file. kafka-clients' message classes size it
 * like any record set; {@link ResponseEncoder} sends it as a Netty file region, so the bytes go from
 * the page cache to the socket without passing through the broker's memory.
 */
public final class FileSliceRecords implements TransferableRecords {
    private final FetchedRecords slice;

    public FileSliceRecords(FetchedRecords slice) {
        this.slice = slice;
    }

    FetchedRecords slice() {
        return slice;
    }

    @Override
    public int sizeInBytes() {
        return slice.sizeInBytes();
    }

    @Override
    public int writeTo(TransferableChannel channel, int position, int length) throws IOException {
        return (int) slice.transferTo(channel, position, length);
    }

    @Override
    public RecordsSend<? extends TransferableRecords> toSend() {
        return new DefaultRecordsSend<>(this);
    }
}
