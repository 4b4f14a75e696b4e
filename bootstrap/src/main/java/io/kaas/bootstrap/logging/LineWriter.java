package io.kaas.bootstrap.logging;

import io.kaas.bootstrap.telemetry.RecordedSpan;
import io.opentelemetry.api.trace.SpanContext;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * Writes each log event as one line (standard error in the broker): {@code text} for people, {@code json} for log
 * pipelines. Both carry the trace and span ids of the thread's current span when a traced request is
 * being handled, so a line leads to its trace. An exception's stack trace stays inside its line
 * (JSON-escaped; in text, on the lines that follow, as people read them).
 */
final class LineWriter {
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSXXX")
            .withZone(ZoneOffset.UTC);

    /** How lines look: {@code KAAS_LOG_FORMAT}. */
    enum Format {
        TEXT, JSON;

        static Format parse(String value) {
            return switch (value.trim().toLowerCase(Locale.ROOT)) {
                case "text" -> TEXT;
                case "json" -> JSON;
                default -> throw new IllegalArgumentException("KAAS_LOG_FORMAT=" + value + ": expected text or json");
            };
        }
    }

    /** Where lines go, asked at each line: {@code System::err} follows {@link System#setErr}. */
    private final Supplier<PrintStream> out;
    private volatile Format format;

    LineWriter(Supplier<PrintStream> out, Format format) {
        this.out = out;
        this.format = format;
    }

    void format(Format format) {
        this.format = format;
    }

    void write(Level level, String logger, String message, Throwable error) {
        Instant now = Instant.now();
        SpanContext span = RecordedSpan.currentContext();
        String line = format == Format.JSON ? json(now, level, logger, message, error, span)
                : text(now, level, logger, message, error, span);
        out.get().print(line);
    }

    private static String text(Instant now, Level level, String logger, String message, Throwable error,
                               SpanContext span) {
        StringBuilder line = new StringBuilder(128).append(TIME.format(now)).append(' ').append(level.name())
                .append(' ').append(logger.substring(logger.lastIndexOf('.') + 1)).append(" - ").append(message);
        if (span.isValid()) {
            line.append(" trace_id=").append(span.getTraceId()).append(" span_id=").append(span.getSpanId());
        }
        line.append(System.lineSeparator());
        if (error != null) {
            line.append(stackTrace(error));
        }
        return line.toString();
    }

    private static String json(Instant now, Level level, String logger, String message, Throwable error,
                               SpanContext span) {
        StringBuilder line = new StringBuilder(192).append("{\"time\":\"").append(TIME.format(now))
                .append("\",\"level\":\"").append(level.name()).append("\",\"logger\":");
        quote(line, logger).append(",\"thread\":");
        quote(line, Thread.currentThread().getName()).append(",\"message\":");
        quote(line, message);
        if (span.isValid()) {
            line.append(",\"trace_id\":\"").append(span.getTraceId()).append("\",\"span_id\":\"")
                    .append(span.getSpanId()).append('"');
        }
        if (error != null) {
            line.append(",\"error\":");
            quote(line, stackTrace(error));
        }
        return line.append('}').append('\n').toString();
    }

    private static String stackTrace(Throwable error) {
        StringWriter trace = new StringWriter();
        error.printStackTrace(new PrintWriter(trace));
        return trace.toString();
    }

    /** {@code value} as a JSON string: quotes, backslashes and control characters escaped. */
    static StringBuilder quote(StringBuilder out, String value) {
        out.append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"');
    }
}
