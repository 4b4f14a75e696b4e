package io.kaas.application.quota;

import io.kaas.domain.quota.QuotaEntity;
import io.kaas.domain.quota.QuotaLimits;
import io.kaas.domain.quota.StoredClientQuotas;
import io.kaas.domain.security.Credentials;
import io.kaas.domain.security.StoredUser;
import io.kaas.domain.security.UserQuotas;
import java.util.HashMap;
import java.util.Map;

/** The bounds configured for each quota type, as one immutable snapshot. */
public record ClientQuotaLimits(QuotaLimits produce, QuotaLimits fetch, QuotaLimits request) {
    public static final ClientQuotaLimits NONE = new ClientQuotaLimits(QuotaLimits.NONE, QuotaLimits.NONE,
            QuotaLimits.NONE);

    /** The quotas of the named users {@code credentials.json} keeps and of every entity {@code stored} keeps. */
    public static ClientQuotaLimits of(Credentials credentials, StoredClientQuotas stored) {
        Map<QuotaEntity, Map<String, Double>> entities = new HashMap<>(stored.entities());
        for (StoredUser user : credentials.users().values()) {
            entities.put(QuotaEntity.user(QuotaEntity.Name.of(user.name())), user.quotas().values());
        }
        return new ClientQuotaLimits(bounds(entities, UserQuotas.PRODUCER_BYTE_RATE),
                bounds(entities, UserQuotas.CONSUMER_BYTE_RATE), bounds(entities, UserQuotas.REQUEST_PERCENTAGE));
    }

    private static QuotaLimits bounds(Map<QuotaEntity, Map<String, Double>> entities, String key) {
        Map<QuotaEntity, Double> bounds = new HashMap<>();
        entities.forEach((entity, values) -> {
            Double bound = values.get(key);
            if (bound != null) {
                bounds.put(entity, bound);
            }
        });
        return QuotaLimits.of(bounds);
    }
}
