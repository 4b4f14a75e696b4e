package io.kaas.adapter.wire.codec;

/** A frame that cannot be a request this broker serves; the connection is closed, as Apache does. */
public final class MalformedRequestException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public MalformedRequestException(String message, Throwable cause) {
        super(message, cause);
    }
}
