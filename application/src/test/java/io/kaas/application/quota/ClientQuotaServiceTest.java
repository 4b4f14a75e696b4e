package io.kaas.application.quota;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.application.authentication.CredentialCache;
import io.kaas.application.memory.InMemoryCredentialStore;
import io.kaas.application.port.in.ClientQuotasUseCase.Component;
import io.kaas.application.port.in.ClientQuotasUseCase.Described;
import io.kaas.application.port.in.ClientQuotasUseCase.Entry;
import io.kaas.application.port.in.ClientQuotasUseCase.MatchType;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.security.Credentials;
import io.kaas.domain.security.StoredUser;
import io.kaas.domain.security.UserQuotas;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ClientQuotaServiceTest {
    private final ClientQuotaService quotas;

    ClientQuotaServiceTest() {
        InMemoryCredentialStore store = new InMemoryCredentialStore();
        store.write(Credentials.EMPTY
                .with(new StoredUser("alice", Map.of(), new UserQuotas(1_048_576L, null, 25.0)))
                .with(new StoredUser("bob", Map.of(), new UserQuotas(null, 2_048L, null)))
                .with(new StoredUser("carol", Map.of(), null)));
        quotas = new ClientQuotaService(CredentialCache.load(store));
    }

    @Test
    void anExactUserIsDescribedWithApachesQuotaNames() {
        Described described = quotas.describe(List.of(new Component("user", MatchType.EXACT, "alice")), true);

        assertThat(described.outcome().succeeded()).isTrue();
        assertThat(described.entries()).containsExactly(new Entry(Map.of("user", "alice"),
                Map.of("producer_byte_rate", 1_048_576.0, "request_percentage", 25.0)));
    }

    @Test
    void specifiedMatchesEveryUserWithQuotasAndAUserWithoutQuotasIsNoEntity() {
        assertThat(quotas.describe(List.of(new Component("user", MatchType.SPECIFIED, null)), false).entries())
                .extracting(e -> e.entity().get("user")).containsExactly("alice", "bob");
        assertThat(quotas.describe(List.of(new Component("user", MatchType.EXACT, "carol")), true).entries()).isEmpty();
        assertThat(quotas.describe(List.of(new Component("user", MatchType.DEFAULT, null)), true).entries())
                .as("no default user quota is stored").isEmpty();
        assertThat(quotas.describe(List.of(), false).entries()).hasSize(2);
        assertThat(quotas.describe(List.of(), true).entries()).as("strict and no components: only the empty entity")
                .isEmpty();
    }

    @Test
    void aClientIdComponentMatchesNoUserEntityButIsValid() {
        Described described = quotas.describe(List.of(new Component("user", MatchType.EXACT, "alice"),
                new Component("client-id", MatchType.SPECIFIED, null)), false);

        assertThat(described.outcome().succeeded()).isTrue();
        assertThat(described.entries()).isEmpty();
    }

    @Test
    void malformedFiltersGetApachesErrors() {
        assertThat(quotas.describe(List.of(new Component("user", MatchType.EXACT, null)), true).outcome().message())
                .isEqualTo("Request specified MATCH_TYPE_EXACT, but set match string to null.");
        assertThat(quotas.describe(List.of(new Component("user", MatchType.SPECIFIED, null),
                new Component("user", MatchType.EXACT, "a")), true).outcome().message())
                .isEqualTo("Entity type user cannot appear more than once in the filter.");
        assertThat(quotas.describe(List.of(new Component("group", MatchType.SPECIFIED, null)), true).outcome().error())
                .isEqualTo(KafkaError.UNSUPPORTED_VERSION);
        assertThat(quotas.describe(List.of(new Component("ip", MatchType.SPECIFIED, null),
                new Component("user", MatchType.SPECIFIED, null)), true).outcome().error())
                .isEqualTo(KafkaError.INVALID_REQUEST);
        assertThat(quotas.describe(List.of(new Component("user", MatchType.DEFAULT, "x")), true).outcome().error())
                .isEqualTo(KafkaError.INVALID_REQUEST);
    }
}
