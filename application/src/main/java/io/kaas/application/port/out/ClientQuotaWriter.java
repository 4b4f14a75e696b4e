package io.kaas.application.port.out;

import io.kaas.domain.quota.QuotaEntity;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * Where AlterClientQuotas writes the quotas of entities other than a lone named user (those go through the
 * {@link UserWriter}), IPs included: {@code client-quotas.json} standalone. Calls do I/O: make them from an I/O or control thread.
 */
public interface ClientQuotaWriter {

    /** Why this writer cannot hold {@code entity}'s quotas; empty when it can. */
    Optional<String> refusal(QuotaEntity entity);

    /**
     * Rewrites each entity's quota values with what its change makes of them; durable when it returns.
     *
     * @throws java.io.UncheckedIOException when the changes could not be written
     */
    void alter(Map<QuotaEntity, UnaryOperator<Map<String, Double>>> changes);

    /** Why this writer cannot hold the quotas of the IP entity {@code ip}; empty when it can. */
    Optional<String> ipRefusal(QuotaEntity.Name ip);

    /**
     * Rewrites each IP entity's quota values with what its change makes of them; durable when it returns.
     *
     * @throws java.io.UncheckedIOException when the changes could not be written
     */
    void alterIps(Map<QuotaEntity.Name, UnaryOperator<Map<String, Double>>> changes);

    /** A writer with nowhere to keep any entity's quotas, refusing each with {@code why}. */
    static ClientQuotaWriter refusing(String why) {
        return refusing(why, why);
    }

    /** A writer with nowhere to keep any entity's quotas, refusing IPs with {@code whyNotIps}, others with {@code why}. */
    static ClientQuotaWriter refusing(String why, String whyNotIps) {
        return new ClientQuotaWriter() {
            @Override
            public Optional<String> refusal(QuotaEntity entity) {
                return Optional.of(why);
            }

            @Override
            public void alter(Map<QuotaEntity, UnaryOperator<Map<String, Double>>> changes) {
                throw new IllegalStateException(why);
            }

            @Override
            public Optional<String> ipRefusal(QuotaEntity.Name ip) {
                return Optional.of(whyNotIps);
            }

            @Override
            public void alterIps(Map<QuotaEntity.Name, UnaryOperator<Map<String, Double>>> changes) {
                throw new IllegalStateException(whyNotIps);
            }
        };
    }
}
