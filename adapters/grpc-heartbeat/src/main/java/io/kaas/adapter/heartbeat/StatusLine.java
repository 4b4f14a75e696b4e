package io.kaas.adapter.heartbeat;

import io.grpc.Status;

/** How a stream ended, on one log line: gRPC's own {@code Status.toString()} spans several with its cause. */
final class StatusLine {
    private StatusLine() {
    }

    /** For example {@code UNAVAILABLE: io exception (Connection refused: /127.0.0.1:9093)}. */
    static String of(Throwable streamError) {
        Status status = Status.fromThrowable(streamError);
        StringBuilder line = new StringBuilder(status.getCode().name());
        if (status.getDescription() != null) {
            line.append(": ").append(status.getDescription());
        }
        Throwable cause = status.getCause();
        if (cause != null && cause.getMessage() != null) {
            line.append(" (").append(cause.getMessage()).append(')');
        }
        return line.toString().replaceAll("\\s*\\R\\s*", " ");
    }
}
