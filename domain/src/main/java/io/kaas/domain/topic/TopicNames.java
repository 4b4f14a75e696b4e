package io.kaas.domain.topic;

import java.util.Optional;

/** Apache Kafka's topic-name rules ({@code org.apache.kafka.common.internals.Topic}). */
public final class TopicNames {
    /** Longest legal name: 255 minus room for a partition suffix and a deletion marker, as in Apache. */
    public static final int MAX_LENGTH = 249;

    private TopicNames() {
    }

    /** Why the name is illegal, worded exactly as kafka-clients 3.7.2's {@code Topic.validate}, or empty when legal. */
    public static Optional<String> validate(String name) {
        return Optional.ofNullable(detectInvalid(name)).map(reason -> "Topic name is invalid: " + reason);
    }

    private static String detectInvalid(String name) {
        if (name == null || name.isEmpty()) {
            return "the empty string is not allowed";
        }
        if (name.equals(".")) {
            return "'.' is not allowed";
        }
        if (name.equals("..")) {
            return "'..' is not allowed";
        }
        if (name.length() > MAX_LENGTH) {
            return "the length of '" + name + "' is longer than the max allowed length " + MAX_LENGTH;
        }
        for (int i = 0; i < name.length(); i++) {
            if (!isLegalChar(name.charAt(i))) {
                return "'" + name + "' contains one or more characters other than ASCII alphanumerics, '.', '_' and '-'";
            }
        }
        return null;
    }

    /** Whether two names map to the same metric name, which Apache forbids ('.' and '_' collide). */
    public static boolean collide(String a, String b) {
        return !a.equals(b) && a.replace('.', '_').equals(b.replace('.', '_'));
    }

    private static boolean isLegalChar(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                || c == '.' || c == '_' || c == '-';
    }
}
