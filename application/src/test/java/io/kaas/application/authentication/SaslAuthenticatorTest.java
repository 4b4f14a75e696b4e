package io.kaas.application.authentication;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.application.memory.InMemoryCredentialStore;
import io.kaas.domain.security.SaslMechanism;
import io.kaas.domain.security.SaslServerExchange;
import io.kaas.domain.security.ScramMechanism;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class SaslAuthenticatorTest {
    private static final byte[] SALT = "salt".getBytes(StandardCharsets.UTF_8);
    private final InMemoryCredentialStore store = new InMemoryCredentialStore();
    private final CredentialCache cache = CredentialCache.load(store);
    private final AtomicInteger nonces = new AtomicInteger();
    private final SaslAuthenticator authenticator = new SaslAuthenticator(cache, () -> "srv" + nonces.incrementAndGet());

    @Test
    void eachScramExchangeGetsAFreshServerNonceAfterTheClientsOwn() {
        new UserScramCredentialService(cache, new StoredUserWriter(cache)).setPassword("alice", ScramMechanism.SCRAM_SHA_256, "pw", SALT, 4096);

        String first = serverFirst(authenticator.start(SaslMechanism.SCRAM_SHA_256));
        String second = serverFirst(authenticator.start(SaslMechanism.SCRAM_SHA_256));

        assertThat(nonce(first)).isEqualTo("cnoncesrv1");
        assertThat(nonce(second)).isEqualTo("cnoncesrv2");
    }

    @Test
    void exchangesVerifyAgainstTheCredentialsCachedWhenTheyStart() {
        int reads = store.reads();
        SaslServerExchange plain = authenticator.start(SaslMechanism.PLAIN);
        new UserScramCredentialService(cache, new StoredUserWriter(cache)).setPassword("bob", ScramMechanism.SCRAM_SHA_512, "pw", SALT, 4096);

        assertThat(plain.mechanism()).isEqualTo(SaslMechanism.PLAIN);
        assertThat(authenticator.start(SaslMechanism.PLAIN).evaluate("\0bob\0pw".getBytes(StandardCharsets.UTF_8)))
                .isEmpty();
        assertThat(store.reads()).as("only the update read the file").isEqualTo(reads + 1);
    }

    private static String serverFirst(SaslServerExchange exchange) {
        return new String(exchange.evaluate("n,,n=alice,r=cnonce".getBytes(StandardCharsets.UTF_8)), StandardCharsets.UTF_8);
    }

    private static String nonce(String serverFirst) {
        return serverFirst.substring(2, serverFirst.indexOf(','));
    }
}
