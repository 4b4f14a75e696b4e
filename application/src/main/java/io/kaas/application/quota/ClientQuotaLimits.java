package io.kaas.application.quota;

import io.kaas.domain.quota.QuotaEntity;
import io.kaas.domain.quota.QuotaLimits;
import io.kaas.domain.security.Credentials;
import io.kaas.domain.security.StoredUser;
import io.kaas.domain.security.UserQuotas;
import java.util.HashMap;
import java.util.Map;

/** The bounds configured for each quota type, as one immutable snapshot. */
public record ClientQuotaLimits(QuotaLimits produce, QuotaLimits fetch, QuotaLimits request) {
    public static final ClientQuotaLimits NONE = new ClientQuotaLimits(QuotaLimits.NONE, QuotaLimits.NONE,
            QuotaLimits.NONE);

    /** The quotas {@code credentials.json} keeps: those of named users. */
    public static ClientQuotaLimits of(Credentials credentials) {
        Map<QuotaEntity, Double> produce = new HashMap<>();
        Map<QuotaEntity, Double> fetch = new HashMap<>();
        Map<QuotaEntity, Double> request = new HashMap<>();
        for (StoredUser user : credentials.users().values()) {
            UserQuotas quotas = user.quotas();
            QuotaEntity entity = QuotaEntity.user(QuotaEntity.Name.of(user.name()));
            if (quotas.producerByteRate() != null) {
                produce.put(entity, quotas.producerByteRate().doubleValue());
            }
            if (quotas.consumerByteRate() != null) {
                fetch.put(entity, quotas.consumerByteRate().doubleValue());
            }
            if (quotas.requestPercentage() != null) {
                request.put(entity, quotas.requestPercentage());
            }
        }
        return new ClientQuotaLimits(QuotaLimits.of(produce), QuotaLimits.of(fetch), QuotaLimits.of(request));
    }
}
