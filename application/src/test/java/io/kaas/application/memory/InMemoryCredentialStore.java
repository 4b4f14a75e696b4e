package io.kaas.application.memory;

import io.kaas.application.port.out.CredentialStore;
import io.kaas.domain.security.Credentials;
import java.util.concurrent.atomic.AtomicInteger;

/** {@code credentials.json} in memory; counts reads, so tests can tell the cache from the file. */
public final class InMemoryCredentialStore implements CredentialStore {
    private volatile Credentials credentials = Credentials.EMPTY;
    private final AtomicInteger reads = new AtomicInteger();

    @Override
    public Credentials read() {
        reads.incrementAndGet();
        return credentials;
    }

    @Override
    public void write(Credentials credentials) {
        this.credentials = credentials;
    }

    public int reads() {
        return reads.get();
    }
}
