package io.kaas.bootstrap.telemetry;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * Reads the spans out of an OTLP/HTTP {@code ExportTraceServiceRequest} (protobuf) with just the
 * wire format: resource_spans (1) → scope_spans (2) → spans (2) → trace_id (1), span_id (2),
 * parent_span_id (4), name (5), attributes (9: key 1, value 2 → string 1 / int 3).
 */
public final class OtlpSpans {
    private OtlpSpans() {
    }

    /** One exported span; {@code attributes} as {@code key=value} strings. */
    public record ExportedSpan(String traceId, String spanId, String parentSpanId, String name, List<String> attributes) {
    }

    public static List<ExportedSpan> read(byte[] request) {
        List<ExportedSpan> spans = new ArrayList<>();
        for (byte[] resourceSpans : fields(request, 1)) {
            for (byte[] scopeSpans : fields(resourceSpans, 2)) {
                for (byte[] span : fields(scopeSpans, 2)) {
                    List<String> attributes = new ArrayList<>();
                    for (byte[] kv : fields(span, 9)) {
                        String key = text(fields(kv, 1));
                        List<byte[]> value = fields(kv, 2);
                        attributes.add(key + "=" + (value.isEmpty() ? "" : anyValue(value.get(0))));
                    }
                    spans.add(new ExportedSpan(hex(fields(span, 1)), hex(fields(span, 2)), hex(fields(span, 4)),
                            text(fields(span, 5)), attributes));
                }
            }
        }
        return spans;
    }

    private static String anyValue(byte[] value) {
        ByteBuffer in = ByteBuffer.wrap(value);
        while (in.hasRemaining()) {
            long tag = varint(in);
            int field = (int) (tag >>> 3);
            if ((tag & 7) == 0) {
                long v = varint(in);
                if (field == 3) {
                    return Long.toString(v);
                }
            } else if ((tag & 7) == 2) {
                byte[] bytes = new byte[(int) varint(in)];
                in.get(bytes);
                if (field == 1) {
                    return new String(bytes, StandardCharsets.UTF_8);
                }
            } else {
                skip(in, tag);
            }
        }
        return "";
    }

    /** Every length-delimited occurrence of {@code wanted} in a message, skipping the other fields. */
    private static List<byte[]> fields(byte[] message, int wanted) {
        List<byte[]> found = new ArrayList<>();
        ByteBuffer in = ByteBuffer.wrap(message);
        while (in.hasRemaining()) {
            long tag = varint(in);
            if ((tag & 7) == 2) {
                byte[] bytes = new byte[(int) varint(in)];
                in.get(bytes);
                if (tag >>> 3 == wanted) {
                    found.add(bytes);
                }
            } else {
                skip(in, tag);
            }
        }
        return found;
    }

    private static void skip(ByteBuffer in, long tag) {
        switch ((int) (tag & 7)) {
            case 0 -> varint(in);
            case 1 -> in.position(in.position() + 8);
            case 5 -> in.position(in.position() + 4);
            default -> throw new IllegalArgumentException("wire type " + (tag & 7));
        }
    }

    private static long varint(ByteBuffer in) {
        long value = 0;
        for (int shift = 0; ; shift += 7) {
            byte b = in.get();
            value |= (long) (b & 0x7f) << shift;
            if (b >= 0) {
                return value;
            }
        }
    }

    private static String text(List<byte[]> values) {
        return values.isEmpty() ? "" : new String(values.get(0), StandardCharsets.UTF_8);
    }

    private static String hex(List<byte[]> values) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        values.forEach(out::writeBytes);
        return HexFormat.of().formatHex(out.toByteArray());
    }
}
