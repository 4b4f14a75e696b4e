package io.kaas.domain.config;

import io.kaas.domain.error.KafkaError;
import io.kaas.domain.error.KafkaException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;

/**
 * The rules for a topic's configuration overrides: which sets are valid (Apache Kafka 3.7's
 * checks, with its messages), and how IncrementalAlterConfigs operations change them.
 */
public final class TopicConfigs {

    /** One IncrementalAlterConfigs operation on a key; {@code value} is null for DELETE. */
    public record Change(String key, AlterOp op, String value) {
        public Change {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(op, "op");
        }
    }

    private TopicConfigs() {
    }

    /**
     * Checks a complete set of overrides against the topic defaults: no null values, only known
     * keys, every value parseable and valid (checked together with the defaults, as Apache does),
     * {@code min.compaction.lag.ms} not above {@code max.compaction.lag.ms}, and no remote storage.
     *
     * @throws KafkaException INVALID_CONFIG, with Apache's message
     */
    public static void validate(Map<String, String> overrides, Map<String, String> defaults) {
        List<String> nulls = new ArrayList<>();
        overrides.forEach((k, v) -> {
            if (v == null) {
                nulls.add(k);
            }
        });
        if (!nulls.isEmpty()) {
            throw invalidConfig("Null value not supported for topic configs: " + String.join(",", new TreeSet<>(nulls)));
        }
        for (String name : new TreeSet<>(overrides.keySet())) {
            if (TopicConfigKeys.get(name).isEmpty()) {
                throw invalidConfig("Unknown topic config name: " + name);
            }
        }
        Map<String, Object> parsed = new HashMap<>();
        for (TopicConfigKey key : TopicConfigKeys.all()) {
            String raw = overrides.containsKey(key.name()) ? overrides.get(key.name()) : defaults.get(key.name());
            parsed.put(key.name(), key.parse(raw == null ? key.defaultValue() : raw));
        }
        long minLag = (Long) parsed.get(TopicConfigKeys.MIN_COMPACTION_LAG_MS);
        long maxLag = (Long) parsed.get(TopicConfigKeys.MAX_COMPACTION_LAG_MS);
        if (minLag > maxLag) {
            throw invalidConfig("conflict topic config setting " + TopicConfigKeys.MIN_COMPACTION_LAG_MS + " (" + minLag
                    + ") > " + TopicConfigKeys.MAX_COMPACTION_LAG_MS + " (" + maxLag + ")");
        }
        if ((Boolean) parsed.get(TopicConfigKeys.REMOTE_STORAGE_ENABLE)) {
            throw invalidConfig("Tiered Storage functionality is disabled in the broker. Topic cannot be configured "
                    + "with remote log storage.");
        }
    }

    /**
     * The overrides after applying {@code changes} in order to {@code current}: SET replaces, DELETE
     * removes, APPEND and SUBTRACT edit a list value item by item, starting from the key's Apache
     * default when it is not overridden (as Apache's controller does). The result is not validated.
     *
     * @throws KafkaException INVALID_CONFIG when APPEND or SUBTRACT names a key that is not a list
     */
    public static Map<String, String> apply(Map<String, String> current, List<Change> changes) {
        Map<String, String> next = new LinkedHashMap<>(current);
        for (Change change : changes) {
            switch (change.op()) {
                case SET -> next.put(change.key(), change.value());
                case DELETE -> next.remove(change.key());
                case APPEND, SUBTRACT -> next.put(change.key(), editList(next.get(change.key()), change));
            }
        }
        return next;
    }

    private static String editList(String current, Change change) {
        TopicConfigKey key = TopicConfigKeys.get(change.key()).filter(k -> k.type() == ConfigType.LIST)
                .orElseThrow(() -> invalidConfig("Can't " + change.op() + " to key " + change.key()
                        + " because its type is not LIST."));
        return ConfigValues.appendOrSubtract(current != null ? current : key.defaultValue(), change.value(),
                change.op() == AlterOp.APPEND);
    }

    private static KafkaException invalidConfig(String message) {
        return new KafkaException(KafkaError.INVALID_CONFIG, message);
    }
}
