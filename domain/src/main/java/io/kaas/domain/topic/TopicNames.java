package io.kaas.domain.topic;

import java.util.Optional;

/** Apache Kafka's topic-name rules ({@code org.apache.kafka.common.internals.Topic}). */
public final class TopicNames {
    /** Longest legal name: 255 minus room for a partition suffix and a deletion marker, as in Apache. */
    public static final int MAX_LENGTH = 249;

    private TopicNames() {
    }

    /** Why the name is illegal, with Apache's wording, or empty when it is legal. */
    public static Optional<String> validate(String name) {
        if (name == null || name.isEmpty()) {
            return Optional.of("Topic name is illegal, it can't be empty");
        }
        if (name.equals(".") || name.equals("..")) {
            return Optional.of("Topic name cannot be \".\" or \"..\"");
        }
        if (name.length() > MAX_LENGTH) {
            return Optional.of("Topic name is illegal, it can't be longer than " + MAX_LENGTH
                    + " characters, topic name: " + name);
        }
        for (int i = 0; i < name.length(); i++) {
            if (!isLegalChar(name.charAt(i))) {
                return Optional.of("Topic name \"" + name + "\" is illegal, it contains a character other than "
                        + "ASCII alphanumerics, '.', '_' and '-'");
            }
        }
        return Optional.empty();
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
