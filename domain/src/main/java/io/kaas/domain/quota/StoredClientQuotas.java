package io.kaas.domain.quota;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * The quotas kept for entities other than a lone named user (client ids, default entities, user and client-id
 * pairs): each entity's values under Apache's config names ({@code producer_byte_rate}, ...). An entity left
 * without values is not kept, nor is a lone named user: its quotas live with the user, and one entity has one
 * source of truth.
 *
 * @param entities each entity's quota values, never empty
 */
public record StoredClientQuotas(Map<QuotaEntity, Map<String, Double>> entities) {
    public static final StoredClientQuotas EMPTY = new StoredClientQuotas(Map.of());

    public StoredClientQuotas {
        Map<QuotaEntity, Map<String, Double>> copy = new LinkedHashMap<>();
        entities.forEach((entity, values) -> {
            if (!values.isEmpty() && !isNamedUser(entity)) {
                copy.put(entity, Map.copyOf(values));
            }
        });
        entities = Collections.unmodifiableMap(copy);
    }

    private static boolean isNamedUser(QuotaEntity entity) {
        return entity.clientId() == null && !entity.user().isDefault();
    }

    /** These quotas with {@code change} applied to each entity's values (an empty map for an entity without). */
    public StoredClientQuotas with(Map<QuotaEntity, UnaryOperator<Map<String, Double>>> changes) {
        Map<QuotaEntity, Map<String, Double>> next = new LinkedHashMap<>(entities);
        changes.forEach((entity, change) -> next.put(entity, change.apply(next.getOrDefault(entity, Map.of()))));
        return new StoredClientQuotas(next);
    }
}
