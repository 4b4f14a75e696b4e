package io.kaas.application.quota;

import io.kaas.domain.quota.IpConnectionLimits;
import io.kaas.domain.quota.QuotaEntity;
import io.kaas.domain.quota.QuotaLimits;
import io.kaas.domain.quota.StoredClientQuotas;
import io.kaas.domain.security.Credentials;
import io.kaas.domain.security.StoredUser;
import io.kaas.domain.security.UserQuotas;
import java.util.HashMap;
import java.util.Map;

/** The bounds configured for each quota type, as one immutable snapshot. */
public record ClientQuotaLimits(QuotaLimits produce, QuotaLimits fetch, QuotaLimits request,
                                QuotaLimits controllerMutation, IpConnectionLimits connections) {
    public static final ClientQuotaLimits NONE = new ClientQuotaLimits(QuotaLimits.NONE, QuotaLimits.NONE,
            QuotaLimits.NONE, QuotaLimits.NONE, IpConnectionLimits.NONE);

    /** The quotas of the named users {@code credentials.json} keeps and of every entity {@code stored} keeps. */
    public static ClientQuotaLimits of(Credentials credentials, StoredClientQuotas stored) {
        Map<QuotaEntity, Map<String, Double>> entities = new HashMap<>(stored.entities());
        for (StoredUser user : credentials.users().values()) {
            entities.put(QuotaEntity.user(QuotaEntity.Name.of(user.name())), user.quotas().values());
        }
        return new ClientQuotaLimits(bounds(entities, UserQuotas.PRODUCER_BYTE_RATE),
                bounds(entities, UserQuotas.CONSUMER_BYTE_RATE), bounds(entities, UserQuotas.REQUEST_PERCENTAGE),
                bounds(entities, UserQuotas.CONTROLLER_MUTATION_RATE), connections(stored));
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

    private static IpConnectionLimits connections(StoredClientQuotas stored) {
        Map<String, Double> byIp = new HashMap<>();
        Double defaultBound = null;
        for (Map.Entry<QuotaEntity.Name, Map<String, Double>> ip : stored.ips().entrySet()) {
            Double bound = ip.getValue().get(IpAddresses.CONNECTION_CREATION_RATE);
            if (bound == null) {
                continue;
            }
            if (ip.getKey().isDefault()) {
                defaultBound = bound;
            } else {
                byIp.put(IpAddresses.key(ip.getKey().value()), bound);
            }
        }
        return new IpConnectionLimits(byIp, defaultBound);
    }
}
