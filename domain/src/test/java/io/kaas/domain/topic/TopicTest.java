package io.kaas.domain.topic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class TopicTest {
    private static final UUID ID = new UUID(1L, 2L);

    @Test
    void knowsItsPartitions() {
        Topic topic = new Topic("t", ID, 3, Map.of());
        assertThat(topic.partition(2)).isEqualTo(new TopicPartition("t", 2));
        assertThat(topic.hasPartition(0)).isTrue();
        assertThat(topic.hasPartition(2)).isTrue();
        assertThat(topic.hasPartition(3)).isFalse();
        assertThat(topic.hasPartition(-1)).isFalse();
    }

    @Test
    void needsAtLeastOnePartition() {
        assertThatThrownBy(() -> new Topic("t", ID, 0, Map.of())).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void copiesItsConfigs() {
        Map<String, String> configs = new HashMap<>(Map.of("retention.ms", "1000"));
        Topic topic = new Topic("t", ID, 1, configs);
        configs.put("cleanup.policy", "compact");
        assertThat(topic.configs()).containsExactly(Map.entry("retention.ms", "1000"));
    }

    @Test
    void partitionPrintsAsKafkaDoes() {
        assertThat(new TopicPartition("orders", 4)).hasToString("orders-4");
    }
}
