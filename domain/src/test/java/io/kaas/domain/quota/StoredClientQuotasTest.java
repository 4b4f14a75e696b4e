package io.kaas.domain.quota;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.domain.quota.QuotaEntity.Name;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StoredClientQuotasTest {
    private static final QuotaEntity APP = QuotaEntity.clientId(Name.of("app"));
    private static final QuotaEntity DEFAULT_USER = QuotaEntity.user(Name.DEFAULT);

    @Test
    void aChangeSeesTheEntitysValuesAndAnEntityLeftEmptyIsDropped() {
        StoredClientQuotas quotas = StoredClientQuotas.EMPTY.with(Map.of(
                APP, values -> with(values, "producer_byte_rate", 1024.0),
                DEFAULT_USER, values -> with(values, "consumer_byte_rate", 2048.0)));

        StoredClientQuotas next = quotas.with(Map.of(
                APP, values -> with(values, "request_percentage", 5.0),
                DEFAULT_USER, values -> Map.of()));

        assertThat(next.entities()).containsOnlyKeys(APP);
        assertThat(next.entities().get(APP)).isEqualTo(Map.of("producer_byte_rate", 1024.0, "request_percentage", 5.0));
        assertThat(quotas.entities()).as("unchanged").containsOnlyKeys(APP, DEFAULT_USER);
    }

    @Test
    void entitiesWithoutValuesAndLoneNamedUsersAreNeverKept() {
        assertThat(new StoredClientQuotas(Map.of(APP, Map.of()))).isEqualTo(StoredClientQuotas.EMPTY);
        assertThat(new StoredClientQuotas(Map.of(QuotaEntity.user(Name.of("alice")), Map.of("producer_byte_rate", 1.0))))
                .as("a named user's quotas live with the user").isEqualTo(StoredClientQuotas.EMPTY);
    }

    private static Map<String, Double> with(Map<String, Double> values, String key, double value) {
        Map<String, Double> next = new HashMap<>(values);
        next.put(key, value);
        return next;
    }
}
