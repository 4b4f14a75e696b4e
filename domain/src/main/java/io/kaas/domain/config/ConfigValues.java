package io.kaas.domain.config;

import io.kaas.domain.error.KafkaError;
import io.kaas.domain.error.KafkaException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Parses configuration strings into typed values and formats them back, by the rules Apache
 * Kafka's {@code ConfigDef} applies, so that a value kaas accepts is one Apache accepts and a value
 * it refuses gets the same explanation.
 *
 * <p>Parsed types: BOOLEAN {@link Boolean}, STRING {@link String}, INT {@link Integer}, LONG
 * {@link Long}, DOUBLE {@link Double}, LIST {@code List<String>}.
 */
public final class ConfigValues {
    /** A comma with any whitespace around it: how Apache splits a list value. */
    private static final Pattern LIST_SEPARATOR = Pattern.compile("\\s*,\\s*");

    private ConfigValues() {
    }

    /**
     * The typed value of {@code raw} (surrounding whitespace ignored), or INVALID_CONFIG with
     * Apache's message, e.g. {@code Invalid value x for configuration retention.ms: Not a number of type LONG}.
     */
    public static Object parse(String name, ConfigType type, String raw) {
        String trimmed = raw.trim();
        try {
            return switch (type) {
                case BOOLEAN -> {
                    if (trimmed.equalsIgnoreCase("true")) {
                        yield Boolean.TRUE;
                    }
                    if (trimmed.equalsIgnoreCase("false")) {
                        yield Boolean.FALSE;
                    }
                    throw invalid(name, raw, "Expected value to be either true or false");
                }
                case STRING, PASSWORD, CLASS -> trimmed;
                case INT -> Integer.parseInt(trimmed);
                case SHORT -> Short.parseShort(trimmed);
                case LONG -> Long.parseLong(trimmed);
                case DOUBLE -> Double.parseDouble(trimmed);
                case LIST -> trimmed.isEmpty() ? List.<String>of() : List.of(LIST_SEPARATOR.split(trimmed, -1));
                case UNKNOWN -> raw;
            };
        } catch (NumberFormatException e) {
            throw invalid(name, raw, "Not a number of type " + type.name());
        }
    }

    /** The canonical text of a parsed value: what DescribeConfigs reports (lists joined by commas). */
    public static String format(Object value) {
        if (value instanceof List<?> list) {
            return String.join(",", list.stream().map(String::valueOf).toList());
        }
        return String.valueOf(value);
    }

    /** {@code raw} parsed and formatted again, e.g. {@code " compact , delete"} becomes {@code "compact,delete"}. */
    public static String normalize(String name, ConfigType type, String raw) {
        return format(parse(name, type, raw));
    }

    /** Splits a list value the way the list operations (APPEND/SUBTRACT) do: on commas, dropping empty items. */
    public static List<String> items(String value) {
        if (value == null || value.isEmpty()) {
            return List.of();
        }
        return Arrays.stream(value.split(",")).filter(s -> !s.isEmpty()).toList();
    }

    /**
     * A list value after an APPEND (each operand item not already there, at the end) or a SUBTRACT (each
     * operand item removed), as Apache's incremental list operations edit it.
     */
    public static String appendOrSubtract(String current, String operand, boolean append) {
        List<String> items = new ArrayList<>(items(current));
        for (String item : (operand == null ? "" : operand).split(",")) {
            if (append) {
                if (!items.contains(item)) {
                    items.add(item);
                }
            } else {
                items.remove(item);
            }
        }
        return String.join(",", items);
    }

    /** INVALID_CONFIG worded as Apache's {@code ConfigException(name, value, message)}. */
    public static KafkaException invalid(String name, Object value, String message) {
        return new KafkaException(KafkaError.INVALID_CONFIG,
                "Invalid value " + value + " for configuration " + name + (message == null ? "" : ": " + message));
    }

    /** Lower-cased, for case-insensitive comparisons of list items such as cleanup policies. */
    static String lower(String s) {
        return s.toLowerCase(Locale.ROOT);
    }
}
