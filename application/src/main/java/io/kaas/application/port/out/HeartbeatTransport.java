package io.kaas.application.port.out;

import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * Heartbeats between brokers and the controller: every broker keeps one bidirectional stream to
 * the controller and sends a beat each second (its {@code healthy} and {@code draining} bits); the
 * controller pushes ASSIGNMENT_CHANGED down every stream after writing a new assignment (the fast
 * path; brokers also poll the file). Never on the Produce/Fetch path.
 */
public interface HeartbeatTransport {

    /**
     * Controller side: starts accepting streams on this broker's heartbeat port.
     *
     * @param beats receives every beat, on the transport's threads
     */
    Server serve(Consumer<Beat> beats);

    /**
     * Broker side: keeps a stream to the controller at {@code host:port}, beating every second and
     * reconnecting after a failure, until closed.
     *
     * @param assignmentChanged called on each push, on the transport's threads
     */
    Client dial(String host, int port, int brokerId, BooleanSupplier healthy, BooleanSupplier draining,
                Runnable assignmentChanged);

    /** What a broker says each second. */
    record Beat(int brokerId, boolean healthy, boolean draining) {
    }

    /** The controller's end: pushes to every connected broker. */
    interface Server extends AutoCloseable {
        /** Tells every connected broker to read the assignment now. */
        void pushAssignmentChanged(long controllerEpoch, long version);

        /** Stops accepting and ends every stream. */
        @Override
        void close();
    }

    /** A broker's end. */
    interface Client extends AutoCloseable {
        /** Whether the last beat reached the controller within the last {@code withinMs}. */
        boolean acknowledgedWithin(long withinMs);

        @Override
        void close();
    }
}
