package io.kaas.adapter.wire.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.adapter.wire.support.NettyLeakDetection;
import io.kaas.adapter.wire.support.RecordingAllocator;
import io.kaas.adapter.wire.support.Responses;
import io.kaas.adapter.wire.tls.FileRegionReader;
import io.kaas.application.log.RecordsSlice;
import io.kaas.application.port.out.Filesystem;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.DefaultFileRegion;
import io.netty.channel.FileRegion;
import io.netty.channel.embedded.EmbeddedChannel;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.UnsupportedVersionException;
import org.apache.kafka.common.message.ApiVersionsResponseData;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.message.ListOffsetsResponseData;
import org.apache.kafka.common.message.MetadataResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.record.CompressionType;
import org.apache.kafka.common.record.MemoryRecords;
import org.apache.kafka.common.record.SimpleRecord;
import org.apache.kafka.common.requests.FetchResponse;
import org.apache.kafka.common.requests.MetadataResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Response frames as kafka-clients reads them back: size prefix, header, body; record sets are
 * sent from their own buffers (zero copy), and nothing the encoder allocates outlives the frame.
 */
@ExtendWith(NettyLeakDetection.class)
class ResponseEncoderTest {
    private static final int CORRELATION_ID = 0x0badcafe;

    private final RecordingAllocator allocator = new RecordingAllocator();

    @AfterEach
    void nothingLeaks() {
        allocator.assertAllReleased();
    }

    @ParameterizedTest(name = "Fetch v{0}")
    @ValueSource(shorts = {4, 11, 12, 13, 16})
    void fetchRecordsGoOutZeroCopyAndParseBackEqual(short version) {
        MemoryRecords first = records(1_000L, "a", "b");
        MemoryRecords second = records(2_000L, "c");
        FetchResponseData data = fetchResponse(first, second);

        ByteBuf frame = encode(data, ApiKeys.FETCH, version);

        assertThat(frame).isInstanceOf(CompositeByteBuf.class);
        CompositeByteBuf composite = (CompositeByteBuf) frame;
        assertThat(sharesMemory(composite, first.buffer())).as("first record set is sent from its own buffer").isTrue();
        assertThat(sharesMemory(composite, second.buffer())).as("second record set is sent from its own buffer").isTrue();

        Responses.Received<FetchResponse> received = Responses.parse(frame, ApiKeys.FETCH, version);

        assertThat(frame.refCnt()).isZero();
        assertThat(received.correlationId()).isEqualTo(CORRELATION_ID);
        assertThat(received.body().data()).isEqualTo(roundTripped(data, version));
    }

    @ParameterizedTest(name = "Fetch v{0}")
    @ValueSource(shorts = {4, 12, 16})
    void recordsInASegmentFileGoOutAsAFileRegionBetweenTheBuffers(short version) throws IOException {
        MemoryRecords onDisk = records(1_000L, "a", "b");
        MemoryRecords inMemory = records(2_000L, "c");
        int leading = 7; // the slice starts inside the file, as a fetch from the middle of a segment does
        FileSliceRecords slice = new FileSliceRecords(
                new RecordsSlice.FileSlice(new BytesFile(leading, onDisk), leading, onDisk.sizeInBytes()));
        FetchResponseData data = fetchResponse(MemoryRecords.EMPTY, inMemory);
        data.responses().get(0).partitions().get(0).setRecords(slice);

        ResponseFrame frame = ResponseEncoder.encode(allocator, CORRELATION_ID, ApiKeys.FETCH.responseHeaderVersion(version),
                data, version);

        assertThat(frame.parts()).hasSize(3);
        assertThat(frame.parts().get(0)).isInstanceOf(ByteBuf.class);
        assertThat(frame.parts().get(1)).isInstanceOf(FileRegion.class);
        assertThat(((FileRegion) frame.parts().get(1)).count()).isEqualTo(onDisk.sizeInBytes());
        assertThat(frame.parts().get(2)).isInstanceOf(ByteBuf.class);
        long size = frame.sizeInBytes();

        ByteBuf written = writeOut(frame);

        assertThat(written.readableBytes()).isEqualTo(size);
        Responses.Received<FetchResponse> received = Responses.parse(written, ApiKeys.FETCH, version);
        assertThat(received.body().data()).isEqualTo(roundTripped(fetchResponse(onDisk, inMemory), version));
    }

    @Test
    void overTlsRecordsInASegmentFileAreReadIntoABufferNotTransferred() throws IOException {
        MemoryRecords onDisk = records(1_000L, "a", "b");
        short version = 12;

        ByteBuf written = throughTls(encodeFetchFrom(new UntransferableFile(7, onDisk), 7, onDisk, version));

        assertThat(Responses.parse(written, ApiKeys.FETCH, version).body().data())
                .isEqualTo(roundTripped(fetchResponse(onDisk, MemoryRecords.EMPTY), version));
    }

    @Test
    void recordsInAFileTheKernelCanSendGoOutAsNettysOwnRegionAndItsReleaseLeavesTheFileOpen(@TempDir Path dir)
            throws IOException {
        MemoryRecords onDisk = records(1_000L, "a", "b");
        short version = 12;
        try (FileChannel file = segmentFile(dir, 7, onDisk)) {
            ResponseFrame frame = encodeFetchFrom(new ChannelFile(file), 7, onDisk, version);

            // epoll calls sendfile only for a DefaultFileRegion; any other region it copies through memory
            assertThat(frame.parts().get(1)).isInstanceOf(DefaultFileRegion.class);
            ByteBuf written = writeOut(frame);
            assertThat(Responses.parse(written, ApiKeys.FETCH, version).body().data())
                    .isEqualTo(roundTripped(fetchResponse(onDisk, MemoryRecords.EMPTY), version));
            assertThat(file.isOpen()).as("the log owns the segment's channel").isTrue();
        }
    }

    @Test
    void overTlsRecordsInAFileTheKernelCanSendAreReadIntoABuffer(@TempDir Path dir) throws IOException {
        MemoryRecords onDisk = records(1_000L, "a", "b", "c");
        short version = 12;
        try (FileChannel file = segmentFile(dir, 5, onDisk)) {
            ByteBuf written = throughTls(encodeFetchFrom(new ChannelFile(file), 5, onDisk, version));

            assertThat(Responses.parse(written, ApiKeys.FETCH, version).body().data())
                    .isEqualTo(roundTripped(fetchResponse(onDisk, MemoryRecords.EMPTY), version));
            assertThat(file.isOpen()).isTrue();
        }
    }

    /** A Fetch answer whose one record set is {@code onDisk}, lying at {@code at} in {@code file}. */
    private ResponseFrame encodeFetchFrom(Filesystem.FileHandle file, int at, MemoryRecords onDisk, short version) {
        FetchResponseData data = fetchResponse(MemoryRecords.EMPTY, MemoryRecords.EMPTY);
        data.responses().get(0).partitions().get(0).setRecords(
                new FileSliceRecords(new RecordsSlice.FileSlice(file, at, onDisk.sizeInBytes())));
        return ResponseEncoder.encode(allocator, CORRELATION_ID, ApiKeys.FETCH.responseHeaderVersion(version), data,
                version);
    }

    /** What a TLS connection encrypts: every part written through the file-region reader, in order. */
    private static ByteBuf throughTls(ResponseFrame frame) {
        EmbeddedChannel tls = new EmbeddedChannel(new FileRegionReader(Runnable::run));
        frame.parts().forEach(tls::write);
        tls.flush();
        tls.runPendingTasks();
        ByteBuf written = Unpooled.buffer();
        for (ByteBuf part = tls.readOutbound(); part != null; part = tls.readOutbound()) {
            written.writeBytes(part);
            part.release();
        }
        assertThat(tls.finish()).isFalse();
        return written;
    }

    @Test
    void aWriteToTheRecordsBufferAfterEncodingShowsInTheFrame() {
        MemoryRecords records = records(1_000L, "payload");
        ByteBuf frame = encode(fetchResponse(records, MemoryRecords.EMPTY), ApiKeys.FETCH, (short) 12);
        try {
            ByteBuffer source = records.buffer();
            int last = source.limit() - 1;
            byte before = source.get(last);
            int at = indexOf(frame, records);

            records.buffer().put(last, (byte) ~before); // the duplicate shares the array

            assertThat(frame.getByte(frame.readerIndex() + at + last)).isEqualTo((byte) ~before);
        } finally {
            frame.release();
        }
    }

    @Test
    void aResponseWithoutRecordsIsOneContiguousBuffer() {
        MetadataResponseData data = new MetadataResponseData().setClusterId("c").setControllerId(1);
        data.brokers().add(new MetadataResponseData.MetadataResponseBroker().setNodeId(1).setHost("h").setPort(9092));

        ByteBuf frame = encode(data, ApiKeys.METADATA, (short) 12);

        assertThat(frame).isNotInstanceOf(CompositeByteBuf.class);
        Responses.Received<MetadataResponse> received = Responses.parse(frame, ApiKeys.METADATA, (short) 12);
        assertThat(received.body().data()).isEqualTo(data);
        assertThat(frame.refCnt()).isZero();
    }

    @Test
    void emptyAndNullRecordSetsAreWrittenInline() {
        FetchResponseData data = fetchResponse(MemoryRecords.EMPTY, MemoryRecords.EMPTY);
        ByteBuf frame = encode(data, ApiKeys.FETCH, (short) 16);

        assertThat(frame).isNotInstanceOf(CompositeByteBuf.class);
        Responses.Received<FetchResponse> received = Responses.parse(frame, ApiKeys.FETCH, (short) 16);
        assertThat(received.body().data()).isEqualTo(roundTripped(data, (short) 16));
    }

    @Test
    void theHeaderVersionIsTheOneAskedFor() {
        // ApiVersions answers always carry header v0 (KIP-511), even at flexible body versions.
        ApiVersionsResponseData data = new ApiVersionsResponseData().setErrorCode((short) 35);
        ByteBuf frame = onlyBuffer(ResponseEncoder.encode(allocator, CORRELATION_ID, (short) 0, data, (short) 3));

        assertThat(frame.getInt(0)).isEqualTo(frame.readableBytes() - Integer.BYTES);
        assertThat(frame.getInt(Integer.BYTES)).isEqualTo(CORRELATION_ID);
        // v3 body starts right after the 4-byte correlation id: error code, then api_keys (compact array).
        assertThat(frame.getShort(2 * Integer.BYTES)).isEqualTo((short) 35);
        frame.release();
    }

    @Test
    void aBodyTheVersionCannotCarryFailsAndReleasesWhatItAllocated() {
        // ListOffsets v1 has no leader epoch: a non-default one is refused while the fields are written.
        ListOffsetsResponseData data = new ListOffsetsResponseData();
        ListOffsetsResponseData.ListOffsetsTopicResponse topic = new ListOffsetsResponseData.ListOffsetsTopicResponse()
                .setName("orders");
        topic.partitions().add(new ListOffsetsResponseData.ListOffsetsPartitionResponse().setLeaderEpoch(0));
        data.topics().add(topic);

        assertThatThrownBy(() -> encode(data, ApiKeys.LIST_OFFSETS, (short) 1))
                .isInstanceOf(UnsupportedVersionException.class);
        assertThat(allocator.allocations()).as("the frame buffer was allocated before the failure").isEqualTo(1);
        // @AfterEach asserts it was released.
    }

    private ByteBuf encode(ApiMessage body, ApiKeys key, short version) {
        return onlyBuffer(ResponseEncoder.encode(allocator, CORRELATION_ID, key.responseHeaderVersion(version), body,
                version));
    }

    /** What the channel receives: every part in order, each region through its transferTo; all released. */
    private static ByteBuf writeOut(ResponseFrame frame) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        WritableByteChannel channel = Channels.newChannel(out);
        for (Object part : frame.parts()) {
            if (part instanceof ByteBuf buf) {
                buf.getBytes(buf.readerIndex(), out, buf.readableBytes());
            } else {
                FileRegion region = (FileRegion) part;
                while (region.transferred() < region.count()) {
                    region.transferTo(channel, region.transferred());
                }
            }
        }
        frame.release();
        return Unpooled.wrappedBuffer(out.toByteArray());
    }

    /** A segment file on disk: {@code leading} zero bytes, then the records; open for reading. */
    private static FileChannel segmentFile(Path dir, int leading, MemoryRecords records) throws IOException {
        Path path = dir.resolve("00000000000000000000.log");
        try (FileChannel out = FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            out.write(ByteBuffer.allocate(leading));
            out.write(records.buffer().duplicate());
        }
        return FileChannel.open(path, StandardOpenOption.READ);
    }

    /** A segment file the java.nio filesystem opened: it offers its channel for sendfile. */
    private static final class ChannelFile extends BytesFile {
        private final FileChannel channel;

        ChannelFile(FileChannel channel) {
            super(0, MemoryRecords.EMPTY);
            this.channel = channel;
        }

        @Override
        public Optional<SeekableByteChannel> sendableChannel() {
            return Optional.of(channel);
        }

        @Override
        public int read(ByteBuffer dst, long position) {
            throw new UnsupportedOperationException("the region reads the channel itself");
        }
    }

    /** A segment file that can only be read, as FileRegionReader's direct path does; never transferred. */
    private static final class UntransferableFile extends BytesFile {
        UntransferableFile(int leading, MemoryRecords records) {
            super(leading, records);
        }

        @Override
        public long transferTo(long position, long count, WritableByteChannel target) {
            throw new UnsupportedOperationException("over TLS the records are read into a buffer, not transferred");
        }
    }

    /** A segment file in memory: {@code leading} zero bytes, then the records. */
    private static class BytesFile implements Filesystem.FileHandle {
        private final byte[] bytes;

        BytesFile(int leading, MemoryRecords records) {
            bytes = new byte[leading + records.sizeInBytes()];
            records.buffer().duplicate().get(bytes, leading, records.sizeInBytes());
        }

        @Override
        public int read(ByteBuffer dst, long position) {
            if (position >= bytes.length) {
                return -1;
            }
            int n = (int) Math.min(dst.remaining(), bytes.length - position);
            dst.put(bytes, (int) position, n);
            return n;
        }

        @Override
        public long size() {
            return bytes.length;
        }

        @Override
        public void write(ByteBuffer src, long position) {
            throw new UnsupportedOperationException("read-only");
        }

        @Override
        public void force() {
        }

        @Override
        public void truncate(long size) {
            throw new UnsupportedOperationException("read-only");
        }

        @Override
        public void close() {
        }
    }

    /** A frame of records in memory is one buffer (a composite when there are records). */
    private static ByteBuf onlyBuffer(ResponseFrame frame) {
        assertThat(frame.parts()).hasSize(1).first().isInstanceOf(ByteBuf.class);
        return (ByteBuf) frame.parts().get(0);
    }

    private static FetchResponseData fetchResponse(MemoryRecords first, MemoryRecords second) {
        FetchResponseData data = new FetchResponseData().setSessionId(0);
        FetchResponseData.FetchableTopicResponse topic = new FetchResponseData.FetchableTopicResponse()
                .setTopic("orders").setTopicId(Uuid.fromString("AAAAAAAAAAAAAAAAAAAAAQ"));
        topic.partitions().add(partition(0, first, 3));
        topic.partitions().add(partition(1, second, 1));
        data.responses().add(topic);
        return data;
    }

    private static FetchResponseData.PartitionData partition(int index, MemoryRecords records, long hwm) {
        return new FetchResponseData.PartitionData().setPartitionIndex(index).setHighWatermark(hwm)
                .setLastStableOffset(hwm).setLogStartOffset(0).setRecords(records);
    }

    /** What a peer sees of {@code data} at {@code version}: fields the version lacks read back as defaults. */
    private static FetchResponseData roundTripped(FetchResponseData data, short version) {
        FetchResponseData copy = data.duplicate();
        for (FetchResponseData.FetchableTopicResponse topic : copy.responses()) {
            if (version >= 13) {
                topic.setTopic("");
            } else {
                topic.setTopicId(Uuid.ZERO_UUID);
            }
            if (version < 5) {
                topic.partitions().forEach(p -> p.setLogStartOffset(-1));
            }
        }
        return copy;
    }

    private static MemoryRecords records(long timestamp, String... values) {
        List<SimpleRecord> records = new ArrayList<>();
        for (String value : values) {
            records.add(new SimpleRecord(timestamp, value.getBytes(StandardCharsets.UTF_8)));
        }
        return MemoryRecords.withRecords(CompressionType.NONE, records.toArray(SimpleRecord[]::new));
    }

    /** Whether one component of the frame is a view of exactly {@code records}' memory. */
    private static boolean sharesMemory(CompositeByteBuf frame, ByteBuffer records) {
        for (int i = 0; i < frame.numComponents(); i++) {
            ByteBuf component = frame.component(i);
            if (component.hasArray() && component.array() == records.array()
                    && component.arrayOffset() + component.readerIndex() == records.arrayOffset() + records.position()
                    && component.readableBytes() == records.remaining()) {
                return true;
            }
        }
        return false;
    }

    /** Where the records' bytes start in the frame, relative to its reader index. */
    private static int indexOf(ByteBuf frame, MemoryRecords records) {
        byte[] needle = new byte[records.sizeInBytes()];
        records.buffer().get(needle);
        byte[] hay = new byte[frame.readableBytes()];
        frame.getBytes(frame.readerIndex(), hay);
        outer:
        for (int i = 0; i + needle.length <= hay.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (hay[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        throw new AssertionError("records not found in the frame");
    }
}
