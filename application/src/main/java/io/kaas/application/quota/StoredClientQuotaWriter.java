package io.kaas.application.quota;

import io.kaas.application.port.out.ClientQuotaStore;
import io.kaas.application.port.out.ClientQuotaWriter;
import io.kaas.domain.quota.QuotaEntity;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * Standalone's client-quota writes: read-modify-write of {@code client-quotas.json}, one at a time (this broker is
 * its only writer), then {@code written} so the change is in effect here before the answer goes out.
 */
public final class StoredClientQuotaWriter implements ClientQuotaWriter {
    private final ClientQuotaStore store;
    private final Runnable written;

    public StoredClientQuotaWriter(ClientQuotaStore store, Runnable written) {
        this.store = store;
        this.written = written;
    }

    @Override
    public Optional<String> refusal(QuotaEntity entity) {
        return Optional.empty();
    }

    @Override
    public synchronized void alter(Map<QuotaEntity, UnaryOperator<Map<String, Double>>> changes) {
        store.write(store.read().with(changes));
        written.run();
    }

    @Override
    public Optional<String> ipRefusal(QuotaEntity.Name ip) {
        return Optional.empty();
    }

    @Override
    public synchronized void alterIps(Map<QuotaEntity.Name, UnaryOperator<Map<String, Double>>> changes) {
        store.write(store.read().withIps(changes));
        written.run();
    }
}
