package io.kaas.application.memory;

import io.kaas.application.port.out.ClientQuotaStore;
import io.kaas.domain.quota.StoredClientQuotas;

/** {@code client-quotas.json} in memory; {@link #read} is also the snapshot a broker would reload from it. */
public final class InMemoryClientQuotaStore implements ClientQuotaStore {
    private volatile StoredClientQuotas quotas = StoredClientQuotas.EMPTY;

    @Override
    public StoredClientQuotas read() {
        return quotas;
    }

    @Override
    public void write(StoredClientQuotas quotas) {
        this.quotas = quotas;
    }
}
