package io.kaas.adapter.wire;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.adapter.wire.dispatch.ApiRegistry;
import io.kaas.adapter.wire.support.InMemoryBroker;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.common.protocol.ApiKeys;
import org.junit.jupiter.api.Test;

class KafkaApisTest {

    @Test
    void servesTheDocumentedSurface() {
        ApiRegistry registry = new InMemoryBroker().registry();

        Map<ApiKeys, String> served = new LinkedHashMap<>();
        registry.entries().forEach((key, e) -> served.put(key, e.minVersion() + "-" + e.maxVersion()));

        // Every key here has a handler test parameterized over exactly this range (io.kaas.adapter.wire.handler).
        assertThat(served).containsExactlyEntriesOf(Map.ofEntries(
                Map.entry(ApiKeys.PRODUCE, "3-10"),
                Map.entry(ApiKeys.FETCH, "4-16"),
                Map.entry(ApiKeys.LIST_OFFSETS, "1-8"),
                Map.entry(ApiKeys.METADATA, "0-12"),
                Map.entry(ApiKeys.FIND_COORDINATOR, "0-4"),
                Map.entry(ApiKeys.API_VERSIONS, "0-3"),
                Map.entry(ApiKeys.CREATE_TOPICS, "0-7"),
                Map.entry(ApiKeys.DELETE_TOPICS, "0-6"),
                Map.entry(ApiKeys.INIT_PRODUCER_ID, "0-4"),
                Map.entry(ApiKeys.DESCRIBE_CLUSTER, "0-1")).entrySet().stream()
                .sorted(Map.Entry.comparingByKey())
                .collect(LinkedHashMap::new, (m, e) -> m.put(e.getKey(), e.getValue()), Map::putAll));
    }

    @Test
    void everyServedVersionIsAStableOneKafkaClientsDefines() {
        new InMemoryBroker().registry().entries().forEach((key, e) -> {
            assertThat(e.minVersion()).as("%s min", key).isGreaterThanOrEqualTo(key.oldestVersion());
            assertThat(e.maxVersion()).as("%s max", key).isLessThanOrEqualTo(key.latestVersion(false));
        });
    }
}
