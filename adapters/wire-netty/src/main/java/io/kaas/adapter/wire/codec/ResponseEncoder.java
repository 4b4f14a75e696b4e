package io.kaas.adapter.wire.codec;

import io.kaas.application.port.in.FetchedRecords;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.FileRegion;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.message.ResponseHeaderData;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.MessageSizeAccumulator;
import org.apache.kafka.common.protocol.ObjectSerializationCache;
import org.apache.kafka.common.record.BaseRecords;
import org.apache.kafka.common.record.MemoryRecords;

/**
 * Encodes a response frame (size prefix, header, body) with kafka-clients' generated classes. The
 * size pass and the write pass share one serialization cache. Record sets are not copied: records in
 * memory join the encoded fields in a composite buffer, records in segment files become file
 * regions between the buffers (sent by the kernel).
 */
public final class ResponseEncoder {
    private ResponseEncoder() {
    }

    public static ResponseFrame encode(ByteBufAllocator alloc, int correlationId, short headerVersion, ApiMessage body,
                                       short version) {
        ObjectSerializationCache cache = new ObjectSerializationCache();
        ResponseHeaderData header = new ResponseHeaderData().setCorrelationId(correlationId);
        MessageSizeAccumulator size = new MessageSizeAccumulator();
        header.addSize(size, cache, headerVersion);
        body.addSize(size, cache, version);

        int encodedBytes = Integer.BYTES + size.sizeExcludingZeroCopy();
        ByteBuf fields = alloc.buffer(encodedBytes, encodedBytes);
        RecordsSplittingWriter writer = new RecordsSplittingWriter(fields.nioBuffer(0, encodedBytes));
        try {
            writer.writeInt(size.totalSize());
            header.write(writer, cache, headerVersion);
            body.write(writer, cache, version);
            if (writer.buffer().position() != encodedBytes) {
                throw new IllegalStateException("encoded " + writer.buffer().position() + " bytes, sized " + encodedBytes);
            }
        } catch (RuntimeException e) {
            fields.release(); // a body the version cannot carry fails here; the buffer must not leak with it
            throw e;
        }
        fields.writerIndex(encodedBytes);
        if (writer.insertions.isEmpty()) {
            return new ResponseFrame(List.of(fields));
        }
        List<Object> parts = new ArrayList<>();
        CompositeByteBuf buffers = alloc.compositeBuffer(2 * writer.insertions.size() + 1);
        int from = 0;
        for (Insertion insertion : writer.insertions) {
            buffers.addComponent(true, fields.retainedSlice(from, insertion.at - from));
            from = insertion.at;
            if (insertion.file != null) {
                parts.add(buffers);
                parts.add(fileRegion(insertion.file));
                buffers = alloc.compositeBuffer(2 * writer.insertions.size() + 1);
            } else {
                buffers.addComponent(true, Unpooled.wrappedBuffer(insertion.memory));
            }
        }
        buffers.addComponent(true, fields.retainedSlice(from, encodedBytes - from));
        parts.add(buffers);
        fields.release();
        return new ResponseFrame(parts);
    }

    /** A file's records as Netty's own region type where the log has a file channel for them, which both transports send by sendfile. */
    private static FileRegion fileRegion(FetchedRecords records) {
        return records.inFile()
                .filter(span -> span.channel() instanceof FileChannel)
                .<FileRegion>map(span -> new SegmentFileRegion((FileChannel) span.channel(), span))
                .orElseGet(() -> new SliceRegion(records));
    }

    /** Where a record set goes in the encoded fields: bytes in memory, or a segment file region. */
    private record Insertion(int at, ByteBuffer memory, FetchedRecords file) {
    }

    /** Writes every field, but only notes where each record set belongs. */
    private static final class RecordsSplittingWriter extends ByteBufferAccessor {
        private final List<Insertion> insertions = new ArrayList<>(2);

        RecordsSplittingWriter(ByteBuffer buffer) {
            super(buffer);
        }

        @Override
        public void writeRecords(BaseRecords records) {
            if (records.sizeInBytes() == 0) {
                return;
            }
            if (records instanceof MemoryRecords memory) {
                insertions.add(new Insertion(buffer().position(), memory.buffer(), null));
            } else if (records instanceof FileSliceRecords file) {
                insertions.add(new Insertion(buffer().position(), null, file.slice()));
            } else {
                throw new IllegalArgumentException("cannot send records of type " + records.getClass().getName());
            }
        }
    }
}
