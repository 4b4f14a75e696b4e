package io.kaas.bootstrap.perf;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.RequestHeader;

/**
 * One blocking Kafka connection speaking requests built with kafka-clients' classes: the benchmark
 * decides exactly when each request leaves and when its response arrives, which a KafkaConsumer
 * (heartbeat thread, internal retries) would blur. Requests may be pipelined; responses come in order.
 */
final class RawConnection implements AutoCloseable {
    private final Socket socket;
    private final DataInputStream in;
    private final DataOutputStream out;
    private final String clientId;
    private final ArrayDeque<RequestHeader> inFlight = new ArrayDeque<>();
    private int correlationId;

    RawConnection(String host, int port, String clientId) {
        try {
            socket = new Socket(host, port);
            socket.setTcpNoDelay(true);
            in = new DataInputStream(socket.getInputStream());
            out = new DataOutputStream(socket.getOutputStream());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        this.clientId = clientId;
    }

    /** Writes the request; its response is read by {@link #receive}. */
    void send(AbstractRequest request) {
        RequestHeader header = new RequestHeader(request.apiKey(), request.version(), clientId, ++correlationId);
        ByteBuffer bytes = request.serializeWithHeader(header);
        try {
            out.writeInt(bytes.remaining());
            out.write(bytes.array(), bytes.arrayOffset() + bytes.position(), bytes.remaining());
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        inFlight.add(header);
    }

    @SuppressWarnings("unchecked")
    <R extends AbstractResponse> R receive() {
        try {
            byte[] bytes = new byte[in.readInt()];
            in.readFully(bytes);
            return (R) AbstractResponse.parseResponse(ByteBuffer.wrap(bytes), inFlight.poll());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    <R extends AbstractResponse> R call(AbstractRequest request) {
        send(request);
        return receive();
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException e) {
            // closing: nothing left to do
        }
    }
}
