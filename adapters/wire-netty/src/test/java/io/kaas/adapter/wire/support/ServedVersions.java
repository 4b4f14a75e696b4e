package io.kaas.adapter.wire.support;

import io.kaas.adapter.wire.dispatch.ApiRegistry;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.apache.kafka.common.protocol.ApiKeys;

/**
 * Every version the real registry ({@code KafkaApis}) serves for a key, for parameterized tests
 * ({@link ServedVersionsTest}): widening a range in the registry widens the tests with it.
 */
public final class ServedVersions {
    private static final ApiRegistry REGISTRY = new InMemoryBroker().registry();

    private ServedVersions() {
    }

    /** The versions of {@code key} the registry serves, lowest first. */
    public static Stream<Short> of(ApiKeys key) {
        ApiRegistry.Entry<?> entry = REGISTRY.entries().get(key);
        if (entry == null) {
            throw new IllegalArgumentException(key + " is not served");
        }
        return IntStream.rangeClosed(entry.minVersion(), entry.maxVersion()).mapToObj(v -> (short) v);
    }
}
