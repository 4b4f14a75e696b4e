package io.kaas.application.quota;

import io.kaas.domain.quota.StoredClientQuotas;
import io.kaas.domain.security.Credentials;
import java.util.function.Supplier;

/**
 * The quotas configured now, as the request path reads them: those of the users of {@code credentials.json} and
 * those of {@code client-quotas.json}, derived again only when either snapshot was swapped (a reload, an
 * AlterClientQuotas), so a read is a few volatile reads and comparisons. Two threads seeing a new snapshot at once
 * both derive it; either result is the same.
 */
public final class ConfiguredQuotas implements Supplier<ClientQuotaLimits> {
    private final Supplier<Credentials> credentials;
    private final Supplier<StoredClientQuotas> stored;
    private volatile Derived derived = new Derived(null, null, ClientQuotaLimits.NONE);

    public ConfiguredQuotas(Supplier<Credentials> credentials, Supplier<StoredClientQuotas> stored) {
        this.credentials = credentials;
        this.stored = stored;
    }

    @Override
    public ClientQuotaLimits get() {
        Credentials users = credentials.get();
        StoredClientQuotas others = stored.get();
        Derived last = derived;
        if (last.users != users || last.others != others) {
            last = new Derived(users, others, ClientQuotaLimits.of(users, others));
            derived = last;
        }
        return last.limits;
    }

    private record Derived(Credentials users, StoredClientQuotas others, ClientQuotaLimits limits) {
    }
}
