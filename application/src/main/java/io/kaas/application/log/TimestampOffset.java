package io.kaas.application.log;

/** An offset found by timestamp, with the timestamp it was found by. */
public record TimestampOffset(long timestamp, long offset) {
}
