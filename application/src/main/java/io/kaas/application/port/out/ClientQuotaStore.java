package io.kaas.application.port.out;

import io.kaas.domain.quota.StoredClientQuotas;

/**
 * {@code __cluster/client-quotas.json} on the data volume: the quotas of every entity but a lone named user (whose
 * quotas live with the user in {@code credentials.json}). Standalone, AlterClientQuotas writes it; brokers re-read it
 * to pick up changes without a restart. Both calls do file I/O: call them from an I/O or control thread.
 */
public interface ClientQuotaStore {

    /**
     * The quotas on the volume; empty before anyone wrote them.
     *
     * @throws java.io.UncheckedIOException when the file exists but cannot be read or parsed
     */
    StoredClientQuotas read();

    /**
     * Replaces the quotas; durable when it returns (temp + fsync + rename).
     *
     * @throws java.io.UncheckedIOException when they could not be made durable
     */
    void write(StoredClientQuotas quotas);
}
