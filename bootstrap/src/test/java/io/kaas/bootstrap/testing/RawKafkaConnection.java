package io.kaas.bootstrap.testing;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.MemoryRecords;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.FetchRequest;
import org.apache.kafka.common.requests.FetchResponse;
import org.apache.kafka.common.requests.ProduceRequest;
import org.apache.kafka.common.requests.ProduceResponse;
import org.apache.kafka.common.requests.RequestHeader;

/**
 * A blocking Kafka connection on a plain {@link Socket}, for what real clients never send: exact
 * request versions, hand-built record batches, malformed frames. Requests are encoded and
 * responses decoded with kafka-clients' own classes.
 */
public final class RawKafkaConnection implements AutoCloseable {
    private static final int SIZE_PREFIX = 4;
    /** Produce and Fetch versions of the convenience methods: the newest that still name topics. */
    public static final short PRODUCE_VERSION = 9;
    public static final short FETCH_VERSION = 12;

    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;
    private final String clientId;
    private int nextCorrelationId;

    private RawKafkaConnection(Socket socket, String clientId) throws IOException {
        this.socket = socket;
        this.in = new DataInputStream(socket.getInputStream());
        this.out = socket.getOutputStream();
        this.clientId = clientId;
    }

    /** Connects with a 10 s read timeout. */
    public static RawKafkaConnection connect(String host, int port) {
        Socket socket = new Socket();
        try {
            socket.setTcpNoDelay(true);
            socket.setSoTimeout(10_000);
            socket.connect(new InetSocketAddress(host, port), 5_000);
            return new RawKafkaConnection(socket, "raw-it");
        } catch (IOException e) {
            try {
                socket.close();
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw new UncheckedIOException("cannot connect to " + host + ":" + port, e);
        }
    }

    /** Over a socket already connected (and, for TLS, handshaken) by the caller. */
    public static RawKafkaConnection over(Socket connected) {
        try {
            return new RawKafkaConnection(connected, "raw-it");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static RawKafkaConnection connect(EmbeddedKaas kaas) {
        return connect(kaas.host(), kaas.port());
    }

    /** The header {@link #send} would put on {@code request} next. */
    public RequestHeader nextHeader(AbstractRequest request) {
        return new RequestHeader(request.apiKey(), request.version(), clientId, nextCorrelationId);
    }

    /** Writes {@code request} (at its own version) and returns the matching response. */
    @SuppressWarnings("unchecked")
    public <R extends AbstractResponse> R send(AbstractRequest request) {
        RequestHeader header = nextHeader(request);
        sendOnly(request);
        ByteBuffer response = ByteBuffer.wrap(readFrame());
        return (R) AbstractResponse.parseResponse(response, header);
    }

    /** Writes {@code request} without waiting for an answer (acks=0 produce, or a request expected to be refused). */
    public void sendOnly(AbstractRequest request) {
        RequestHeader header = nextHeader(request);
        nextCorrelationId++;
        ByteBuffer body = request.serializeWithHeader(header);
        ByteBuffer frame = ByteBuffer.allocate(SIZE_PREFIX + body.remaining());
        frame.putInt(body.remaining()).put(body).flip();
        write(frame.array());
    }

    /**
     * Produces one partition's records (Produce v9, by topic name) and returns that partition's answer.
     *
     * @param acks 1 or -1; with 0 there is no answer to return, use {@link #sendOnly}
     */
    public ProduceResponseData.PartitionProduceResponse produce(String topic, int partition, MemoryRecords records,
                                                                short acks) {
        ProduceRequestData data = new ProduceRequestData().setAcks(acks).setTimeoutMs(10_000);
        data.topicData().add(new ProduceRequestData.TopicProduceData().setName(topic).setPartitionData(List.of(
                new ProduceRequestData.PartitionProduceData().setIndex(partition).setRecords(records))));
        ProduceResponse response = send(ProduceRequest.forCurrentMagic(data).build(PRODUCE_VERSION));
        return response.data().responses().find(topic).partitionResponses().get(0);
    }

    /**
     * Fetches one partition from {@code offset} without waiting (Fetch v12, by topic name, no
     * session) and returns that partition's answer; its records are a {@link MemoryRecords}.
     */
    public FetchResponseData.PartitionData fetch(String topic, int partition, long offset, int maxBytes) {
        Map<TopicPartition, FetchRequest.PartitionData> partitions = new LinkedHashMap<>();
        partitions.put(new TopicPartition(topic, partition),
                new FetchRequest.PartitionData(Uuid.ZERO_UUID, offset, -1L, maxBytes, Optional.empty()));
        FetchRequest request = FetchRequest.Builder.forConsumer(FETCH_VERSION, 0, 1, partitions)
                .setMaxBytes(maxBytes).build(FETCH_VERSION);
        FetchResponse response = send(request);
        if (response.error() != Errors.NONE) {
            throw new IllegalStateException("fetch failed: " + response.error());
        }
        return response.data().responses().get(0).partitions().get(0);
    }

    /** Writes bytes as they are. */
    public void write(byte[] bytes) {
        try {
            out.write(bytes);
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Reads one response frame, without its size prefix. */
    public byte[] readFrame() {
        try {
            int size = in.readInt();
            byte[] frame = new byte[size];
            in.readFully(frame);
            return frame;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Whether the broker closed the connection within {@code timeout}: reads (and drops) whatever
     * arrives until end of stream, a reset, or the timeout.
     */
    public boolean closedByPeer(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            InputStream raw = socket.getInputStream();
            byte[] sink = new byte[4096];
            while (true) {
                long leftMs = (deadline - System.nanoTime()) / 1_000_000;
                if (leftMs <= 0) {
                    return false;
                }
                socket.setSoTimeout((int) Math.max(leftMs, 1));
                try {
                    if (raw.read(sink) < 0) {
                        return true;
                    }
                } catch (SocketTimeoutException e) {
                    return false;
                } catch (SocketException | EOFException e) {
                    return true; // reset by peer
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Half-closes our side: the broker sees end of stream after what was written. */
    public void shutdownOutput() {
        try {
            socket.shutdownOutput();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public Socket socket() {
        return socket;
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
