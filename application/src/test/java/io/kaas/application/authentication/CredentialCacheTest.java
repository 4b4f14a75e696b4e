package io.kaas.application.authentication;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.application.fake.ManualScheduler;
import io.kaas.application.memory.InMemoryCredentialStore;
import io.kaas.domain.security.Credentials;
import io.kaas.domain.security.ScramCredential;
import io.kaas.domain.security.ScramMechanism;
import io.kaas.domain.security.StoredUser;
import java.util.Map;
import org.junit.jupiter.api.Test;
import java.nio.charset.StandardCharsets;

class CredentialCacheTest {
    private final InMemoryCredentialStore store = new InMemoryCredentialStore();
    private final ManualScheduler scheduler = new ManualScheduler();

    @Test
    void aUserWrittenToTheFileIsServedAfterTheNextReloadAndNotBefore() {
        CredentialCache cache = CredentialCache.load(store).reloadEvery(1000, scheduler, Runnable::run);
        store.write(Credentials.EMPTY.with(alice()));

        assertThat(cache.current().user("alice")).isEmpty();
        scheduler.advance(999);
        assertThat(cache.current().user("alice")).isEmpty();
        scheduler.advance(1);
        assertThat(cache.current().user("alice")).isPresent();

        store.write(Credentials.EMPTY);
        scheduler.advance(1000);
        assertThat(cache.current().users()).isEmpty();
    }

    @Test
    void readingTheCacheNeverReadsTheFile() {
        CredentialCache cache = CredentialCache.load(store);
        int reads = store.reads();

        cache.current();
        cache.current();

        assertThat(store.reads()).isEqualTo(reads);
    }

    @Test
    void anUpdateWritesTheFileAndIsServedAtOnce() {
        CredentialCache cache = CredentialCache.load(store);

        cache.update(c -> c.with(alice()));

        assertThat(store.read().user("alice")).isPresent();
        assertThat(cache.current().user("alice")).isPresent();
    }

    @Test
    void closingStopsTheReloads() {
        CredentialCache cache = CredentialCache.load(store).reloadEvery(1000, scheduler, Runnable::run);
        cache.close();
        store.write(Credentials.EMPTY.with(alice()));

        scheduler.advance(5000);

        assertThat(cache.current().users()).isEmpty();
        assertThat(scheduler.pending()).isZero();
    }

    private static StoredUser alice() {
        return new StoredUser("alice", Map.of(ScramMechanism.SCRAM_SHA_512,
                ScramCredential.derive(ScramMechanism.SCRAM_SHA_512, "s3cret", "salt".getBytes(StandardCharsets.UTF_8),
                        4096)), null);
    }
}
