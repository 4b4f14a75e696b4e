package io.kaas.adapter.wire;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.adapter.wire.dispatch.ApiRegistry;
import io.kaas.adapter.wire.support.Frames;
import io.kaas.adapter.wire.support.InMemoryBroker;
import io.kaas.adapter.wire.support.NettyLeakDetection;
import io.kaas.adapter.wire.support.WireChannel;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.requests.MetadataRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The served surface as a whole: which keys and versions, and that nothing outside it is handled. */
@ExtendWith(NettyLeakDetection.class)
class KafkaApisTest {

    @Test
    void servesTheDocumentedSurface() {
        ApiRegistry registry = new InMemoryBroker().registry();

        Map<ApiKeys, String> served = new LinkedHashMap<>();
        registry.entries().forEach((key, e) -> served.put(key, e.minVersion() + "-" + e.maxVersion()));

        // Every key here has a handler test parameterized over exactly this range (io.kaas.adapter.wire.handler;
        // ApiVersions in KafkaApiDispatcherTest).
        Map<ApiKeys, String> expected = new LinkedHashMap<>();
        expected.put(ApiKeys.PRODUCE, "3-10");
        expected.put(ApiKeys.FETCH, "4-16");
        expected.put(ApiKeys.LIST_OFFSETS, "1-8");
        expected.put(ApiKeys.METADATA, "0-12");
        expected.put(ApiKeys.OFFSET_COMMIT, "0-9");
        expected.put(ApiKeys.OFFSET_FETCH, "0-9");
        expected.put(ApiKeys.FIND_COORDINATOR, "0-4");
        expected.put(ApiKeys.JOIN_GROUP, "0-9");
        expected.put(ApiKeys.HEARTBEAT, "0-4");
        expected.put(ApiKeys.LEAVE_GROUP, "0-5");
        expected.put(ApiKeys.SYNC_GROUP, "0-5");
        expected.put(ApiKeys.DESCRIBE_GROUPS, "0-5");
        expected.put(ApiKeys.LIST_GROUPS, "0-4");
        expected.put(ApiKeys.SASL_HANDSHAKE, "0-1");
        expected.put(ApiKeys.API_VERSIONS, "0-3");
        expected.put(ApiKeys.CREATE_TOPICS, "0-7");
        expected.put(ApiKeys.DELETE_TOPICS, "0-6");
        expected.put(ApiKeys.DELETE_RECORDS, "0-2");
        expected.put(ApiKeys.INIT_PRODUCER_ID, "0-4");
        expected.put(ApiKeys.ADD_PARTITIONS_TO_TXN, "0-4");
        expected.put(ApiKeys.ADD_OFFSETS_TO_TXN, "0-3");
        expected.put(ApiKeys.END_TXN, "0-3");
        expected.put(ApiKeys.WRITE_TXN_MARKERS, "0-1");
        expected.put(ApiKeys.TXN_OFFSET_COMMIT, "0-3");
        expected.put(ApiKeys.DESCRIBE_ACLS, "0-3");
        expected.put(ApiKeys.CREATE_ACLS, "0-3");
        expected.put(ApiKeys.DELETE_ACLS, "0-3");
        expected.put(ApiKeys.DESCRIBE_CONFIGS, "0-4");
        expected.put(ApiKeys.ALTER_CONFIGS, "0-2");
        expected.put(ApiKeys.ALTER_REPLICA_LOG_DIRS, "0-2");
        expected.put(ApiKeys.DESCRIBE_LOG_DIRS, "0-4");
        expected.put(ApiKeys.SASL_AUTHENTICATE, "0-2");
        expected.put(ApiKeys.CREATE_PARTITIONS, "0-3");
        expected.put(ApiKeys.DELETE_GROUPS, "0-2");
        expected.put(ApiKeys.ELECT_LEADERS, "0-2");
        expected.put(ApiKeys.INCREMENTAL_ALTER_CONFIGS, "0-1");
        expected.put(ApiKeys.ALTER_PARTITION_REASSIGNMENTS, "0-0");
        expected.put(ApiKeys.LIST_PARTITION_REASSIGNMENTS, "0-0");
        expected.put(ApiKeys.OFFSET_DELETE, "0-0");
        expected.put(ApiKeys.DESCRIBE_CLIENT_QUOTAS, "0-1");
        expected.put(ApiKeys.ALTER_CLIENT_QUOTAS, "0-1");
        expected.put(ApiKeys.DESCRIBE_USER_SCRAM_CREDENTIALS, "0-0");
        expected.put(ApiKeys.ALTER_USER_SCRAM_CREDENTIALS, "0-0");
        expected.put(ApiKeys.DESCRIBE_CLUSTER, "0-1");
        expected.put(ApiKeys.DESCRIBE_PRODUCERS, "0-0");
        expected.put(ApiKeys.DESCRIBE_TRANSACTIONS, "0-0");
        expected.put(ApiKeys.LIST_TRANSACTIONS, "0-0");
        assertThat(served).containsExactlyEntriesOf(expected);
    }

    @Test
    void produceIsAdvertisedFromV0AsKafka40DoesForLibrdkafkasCompressionCheck() {
        ApiRegistry registry = new InMemoryBroker().registry();

        assertThat(registry.apiVersions().find(ApiKeys.PRODUCE.id).minVersion()).isZero();
        assertThat(registry.serves(ApiKeys.PRODUCE, (short) 2)).isFalse();
    }

    @Test
    void everyServedVersionIsAStableOneKafkaClientsDefines() {
        new InMemoryBroker().registry().entries().forEach((key, e) -> {
            assertThat(e.minVersion()).as("%s min", key).isGreaterThanOrEqualTo(key.oldestVersion());
            assertThat(e.maxVersion()).as("%s max", key).isLessThanOrEqualTo(key.latestVersion(false));
        });
    }

    /** For each served key but ApiVersions, the version just below and just above its range. */
    static Stream<Arguments> versionsJustOutside() {
        return new InMemoryBroker().registry().entries().values().stream()
                .filter(e -> e.key() != ApiKeys.API_VERSIONS)
                .flatMap(e -> Stream.of(e.minVersion() - 1, e.maxVersion() + 1)
                        .filter(v -> v >= 0)
                        .map(v -> Arguments.of(e.key(), v)));
    }

    @ParameterizedTest(name = "{0} v{1}")
    @MethodSource("versionsJustOutside")
    void aVersionJustOutsideTheServedRangeClosesTheConnection(ApiKeys key, int version) {
        // The version check comes before the body is parsed, so any body will do behind the header.
        MetadataRequest body = new MetadataRequest.Builder(List.of("orders"), false).build((short) 12);
        try (WireChannel wire = new WireChannel(new InMemoryBroker().registry())) {
            wire.write(Frames.frameClaiming(body, 1, key.id, version));

            assertThat(wire.isOpen()).isFalse();
            assertThat(wire.outboundCount()).isZero();
        }
    }
}
