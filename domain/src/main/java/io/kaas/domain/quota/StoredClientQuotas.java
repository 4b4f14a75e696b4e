package io.kaas.domain.quota;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * The quotas kept for entities other than a lone named user (client ids, default entities, user and client-id
 * pairs, IPs): each entity's values under Apache's config names ({@code producer_byte_rate}, ...). An entity left
 * without values is not kept, nor is a lone named user: its quotas live with the user, and one entity has one
 * source of truth.
 *
 * @param entities each user or client-id entity's quota values, never empty
 * @param ips      each IP entity's quota values ({@code connection_creation_rate}), never empty; the default IP
 *                 entity is {@link QuotaEntity.Name#DEFAULT}
 */
public record StoredClientQuotas(Map<QuotaEntity, Map<String, Double>> entities,
                                 Map<QuotaEntity.Name, Map<String, Double>> ips) {
    public static final StoredClientQuotas EMPTY = new StoredClientQuotas(Map.of(), Map.of());

    public StoredClientQuotas {
        entities = kept(entities, entity -> !isNamedUser(entity));
        ips = kept(ips, ip -> true);
    }

    /** User and client-id quotas only. */
    public StoredClientQuotas(Map<QuotaEntity, Map<String, Double>> entities) {
        this(entities, Map.of());
    }

    private static <K> Map<K, Map<String, Double>> kept(Map<K, Map<String, Double>> all, Predicate<K> keeps) {
        Map<K, Map<String, Double>> copy = new LinkedHashMap<>();
        all.forEach((key, values) -> {
            if (!values.isEmpty() && keeps.test(key)) {
                copy.put(key, Map.copyOf(values));
            }
        });
        return Collections.unmodifiableMap(copy);
    }

    private static boolean isNamedUser(QuotaEntity entity) {
        return entity.clientId() == null && !entity.user().isDefault();
    }

    /** These quotas with {@code change} applied to each entity's values (an empty map for an entity without). */
    public StoredClientQuotas with(Map<QuotaEntity, UnaryOperator<Map<String, Double>>> changes) {
        return new StoredClientQuotas(changed(entities, changes), ips);
    }

    /** These quotas with {@code change} applied to each IP entity's values (an empty map for one without). */
    public StoredClientQuotas withIps(Map<QuotaEntity.Name, UnaryOperator<Map<String, Double>>> changes) {
        return new StoredClientQuotas(entities, changed(ips, changes));
    }

    private static <K> Map<K, Map<String, Double>> changed(Map<K, Map<String, Double>> current,
                                                          Map<K, UnaryOperator<Map<String, Double>>> changes) {
        Map<K, Map<String, Double>> next = new LinkedHashMap<>(current);
        changes.forEach((key, change) -> next.put(key, change.apply(next.getOrDefault(key, Map.of()))));
        return next;
    }
}
