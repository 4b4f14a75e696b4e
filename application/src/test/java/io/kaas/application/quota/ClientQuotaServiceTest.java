package io.kaas.application.quota;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.application.authentication.CredentialCache;
import io.kaas.application.memory.InMemoryClientQuotaStore;
import io.kaas.application.memory.InMemoryCredentialStore;
import io.kaas.application.authentication.StoredUserWriter;
import io.kaas.application.port.in.ClientQuotasUseCase.Alteration;
import io.kaas.application.port.in.ClientQuotasUseCase.Altered;
import io.kaas.application.port.in.ClientQuotasUseCase.Component;
import io.kaas.application.port.in.ClientQuotasUseCase.Described;
import io.kaas.application.port.in.ClientQuotasUseCase.Entry;
import io.kaas.application.port.in.ClientQuotasUseCase.MatchType;
import io.kaas.application.port.in.ClientQuotasUseCase.Op;
import io.kaas.application.port.in.Outcome;
import io.kaas.application.port.out.ClientQuotaWriter;
import io.kaas.application.port.out.UserWriter;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.quota.QuotaEntity;
import io.kaas.domain.quota.QuotaEntity.Name;
import io.kaas.domain.quota.StoredClientQuotas;
import io.kaas.domain.security.Credentials;
import io.kaas.domain.security.StoredUser;
import io.kaas.domain.security.UserQuotas;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

class ClientQuotaServiceTest {
    private final InMemoryCredentialStore store = new InMemoryCredentialStore();
    private final InMemoryClientQuotaStore others = new InMemoryClientQuotaStore();
    private final ClientQuotaService quotas;

    ClientQuotaServiceTest() {
        store.write(Credentials.EMPTY
                .with(new StoredUser("alice", Map.of(), new UserQuotas(1_048_576L, null, 25.0, null)))
                .with(new StoredUser("bob", Map.of(), new UserQuotas(null, 2_048L, null, null)))
                .with(new StoredUser("carol", Map.of(), null)));
        CredentialCache cache = CredentialCache.load(store);
        quotas = new ClientQuotaService(cache, new StoredUserWriter(cache), others::read,
                new StoredClientQuotaWriter(others, () -> { }));
    }

    @Test
    void alteringAUserSetsAndRemovesItsQuotasAndDescribeShowsTheResult() {
        List<Altered> altered = quotas.alter(List.of(
                new Alteration(Map.of("user", "alice"), List.of(new Op("producer_byte_rate", null),
                        new Op("consumer_byte_rate", 4096.0), new Op("controller_mutation_rate", 2.5))),
                new Alteration(Map.of("user", "dave"), List.of(new Op("request_percentage", 12.5)))), false);

        assertThat(altered).containsExactly(new Altered(Map.of("user", "alice"), Outcome.OK),
                new Altered(Map.of("user", "dave"), Outcome.OK));
        assertThat(store.read().user("alice").orElseThrow().quotas())
                .isEqualTo(new UserQuotas(null, 4096L, 25.0, 2.5));
        assertThat(quotas.describe(List.of(new Component("user", MatchType.EXACT, "dave")), true).entries())
                .containsExactly(new Entry(Map.of("user", "dave"), Map.of("request_percentage", 12.5)));
    }

    @Test
    void removingAUsersLastQuotaRemovesAUserWithoutCredentials() {
        quotas.alter(List.of(new Alteration(Map.of("user", "bob"), List.of(new Op("consumer_byte_rate", null)))),
                false);

        assertThat(store.read().user("bob")).isEmpty();
    }

    @Test
    void invalidAlterationsGetApachesErrorsAndChangeNothing() {
        List<Altered> altered = quotas.alter(List.of(
                new Alteration(Map.of("user", "alice"), List.of(new Op("producer_byte_rate", 1.5))),
                new Alteration(Map.of("user", "bob"), List.of(new Op("connection_creation_rate", 3.0))),
                new Alteration(Map.of("user", "carol"), List.of(new Op("request_percentage", 1.0),
                        new Op("request_percentage", 2.0))),
                new Alteration(Map.of(), List.of()),
                new Alteration(Map.of("group", "g"), List.of()),
                new Alteration(Map.of("user", ""), List.of()),
                new Alteration(Map.of("user", "erin", "ip", "127.0.0.1"), List.of()),
                new Alteration(Map.of("ip", "no-such-host.invalid"), List.of(new Op("connection_creation_rate", 5.0))),
                new Alteration(Map.of("ip", "10.0.0.1"), List.of(new Op("connection_creation_rate", 2.5))),
                new Alteration(Map.of("ip", "10.0.0.2"), List.of(new Op("connection_creation_rate", 3e9))),
                new Alteration(Map.of("user", "dave"), List.of(new Op("request_percentage", 0.0))),
                new Alteration(Map.of("client-id", "app"), List.of(new Op("connection_creation_rate", 5.0)))), false);

        assertThat(altered).extracting(a -> a.outcome().error()).containsOnly(KafkaError.INVALID_REQUEST);
        assertThat(altered).extracting(a -> a.outcome().message()).containsExactly(
                "producer_byte_rate cannot be a fractional value.",
                "Invalid configuration key connection_creation_rate",
                "Duplicate quota key request_percentage not updating quota for this entity "
                        + "ClientQuotaEntity(entries={user=carol})",
                "Invalid empty client quota entity",
                "Unhandled client quota entity type: group",
                "Empty user not supported",
                "Invalid empty client quota entity",
                "no-such-host.invalid is not a valid IP or resolvable host.",
                "connection_creation_rate cannot be a fractional value.",
                "Proposed value for connection_creation_rate is too large for an INT.",
                "Quota request_percentage must be greater than 0",
                "Invalid configuration key connection_creation_rate");
        assertThat(others.read()).isEqualTo(StoredClientQuotas.EMPTY);
        assertThat(store.read().user("alice").orElseThrow().quotas())
                .isEqualTo(new UserQuotas(1_048_576L, null, 25.0, null));
        assertThat(store.read().user("carol").orElseThrow().quotas()).isEqualTo(UserQuotas.NONE);
    }

    @Test
    void ipAndDefaultIpEntitiesAreKeptDescribedByFilterAndRemoved() {
        List<Altered> altered = quotas.alter(List.of(
                new Alteration(Map.of("ip", "127.0.0.1"), List.of(new Op("connection_creation_rate", 5.0))),
                new Alteration(entity("ip", null), List.of(new Op("connection_creation_rate", 50.0)))), false);

        assertThat(altered).extracting(Altered::outcome).containsOnly(Outcome.OK);
        assertThat(others.read().ips()).isEqualTo(Map.of(Name.of("127.0.0.1"), Map.of("connection_creation_rate", 5.0),
                Name.DEFAULT, Map.of("connection_creation_rate", 50.0)));
        assertThat(quotas.describe(List.of(new Component("ip", MatchType.SPECIFIED, null)), false).entries())
                .containsExactlyInAnyOrder(new Entry(Map.of("ip", "127.0.0.1"), Map.of("connection_creation_rate", 5.0)),
                        new Entry(entity("ip", null), Map.of("connection_creation_rate", 50.0)));
        assertThat(quotas.describe(List.of(new Component("ip", MatchType.DEFAULT, null)), true).entries())
                .containsExactly(new Entry(entity("ip", null), Map.of("connection_creation_rate", 50.0)));
        assertThat(quotas.describe(List.of(new Component("user", MatchType.SPECIFIED, null)), false).entries())
                .as("IPs are not users").isNotEmpty().noneMatch(entry -> entry.entity().containsKey("ip"));

        quotas.alter(List.of(new Alteration(Map.of("ip", "127.0.0.1"), List.of(new Op("connection_creation_rate",
                null)))), false);
        assertThat(others.read().ips()).containsOnlyKeys(Name.DEFAULT);
    }

    @Test
    void clientIdDefaultAndPairEntitiesAreKeptBesideTheUsersAndAnEmptiedEntityIsGone() {
        List<Altered> altered = quotas.alter(List.of(
                new Alteration(Map.of("client-id", "app"), List.of(new Op("producer_byte_rate", 1024.0))),
                new Alteration(entity("user", null), List.of(new Op("consumer_byte_rate", 2048.0))),
                new Alteration(entity("user", "alice", "client-id", null), List.of(new Op("request_percentage", 5.0))),
                new Alteration(entity("user", null, "client-id", "app"), List.of(new Op("producer_byte_rate", 64.0)))),
                false);

        assertThat(altered).extracting(Altered::outcome).containsOnly(Outcome.OK);
        assertThat(others.read().entities()).containsOnlyKeys(
                QuotaEntity.clientId(Name.of("app")), QuotaEntity.user(Name.DEFAULT),
                QuotaEntity.userAndClientId(Name.of("alice"), Name.DEFAULT),
                QuotaEntity.userAndClientId(Name.DEFAULT, Name.of("app")));
        assertThat(store.read().user("alice").orElseThrow().quotas()).as("alice's own entity is untouched")
                .isEqualTo(new UserQuotas(1_048_576L, null, 25.0, null));

        quotas.alter(List.of(new Alteration(Map.of("client-id", "app"), List.of(new Op("producer_byte_rate", null)))),
                false);
        assertThat(others.read().entities()).doesNotContainKey(QuotaEntity.clientId(Name.of("app"))).hasSize(3);
    }

    @Test
    void describeFiltersEveryEntityKindAsApache() {
        quotas.alter(List.of(
                new Alteration(Map.of("client-id", "app"), List.of(new Op("producer_byte_rate", 1024.0))),
                new Alteration(entity("client-id", null), List.of(new Op("producer_byte_rate", 512.0))),
                new Alteration(entity("user", null), List.of(new Op("consumer_byte_rate", 2048.0))),
                new Alteration(Map.of("user", "alice", "client-id", "app"), List.of(new Op("request_percentage", 5.0)))),
                false);

        assertThat(entities(List.of(new Component("client-id", MatchType.EXACT, "app")), true))
                .containsExactly(Map.of("client-id", "app"));
        assertThat(entities(List.of(new Component("client-id", MatchType.EXACT, "app")), false))
                .containsExactlyInAnyOrder(Map.of("client-id", "app"), Map.of("user", "alice", "client-id", "app"));
        assertThat(entities(List.of(new Component("client-id", MatchType.DEFAULT, null)), true))
                .containsExactly(entity("client-id", null));
        assertThat(entities(List.of(new Component("user", MatchType.DEFAULT, null)), false))
                .containsExactly(entity("user", null));
        assertThat(entities(List.of(new Component("user", MatchType.SPECIFIED, null)), true))
                .as("named and default users alone").containsExactlyInAnyOrder(Map.of("user", "alice"),
                        Map.of("user", "bob"), entity("user", null));
        assertThat(entities(List.of(new Component("user", MatchType.EXACT, "alice"),
                new Component("client-id", MatchType.SPECIFIED, null)), true))
                .containsExactly(Map.of("user", "alice", "client-id", "app"));
        assertThat(quotas.describe(List.of(new Component("client-id", MatchType.DEFAULT, null)), true).entries())
                .containsExactly(new Entry(entity("client-id", null), Map.of("producer_byte_rate", 512.0)));
        assertThat(entities(List.of(), false)).hasSize(6);
    }

    @Test
    void aWriterWithNowhereToKeepAnEntityRefusesItWithItsReason() {
        ClientQuotaService clustered = new ClientQuotaService(CredentialCache.load(store), new StoredUserWriter(
                CredentialCache.load(store)), others::read, ClientQuotaWriter.refusing("no resource holds it",
                "no resource holds an IP"));

        assertThat(clustered.alter(List.of(
                new Alteration(Map.of("client-id", "app"), List.of(new Op("producer_byte_rate", 1024.0))),
                new Alteration(Map.of("user", "dave"), List.of(new Op("producer_byte_rate", 1024.0))),
                new Alteration(entity("ip", null), List.of(new Op("connection_creation_rate", 10.0)))), false))
                .containsExactly(new Altered(Map.of("client-id", "app"), new Outcome(KafkaError.INVALID_REQUEST,
                        "no resource holds it")), new Altered(Map.of("user", "dave"), Outcome.OK),
                        new Altered(entity("ip", null), new Outcome(KafkaError.INVALID_REQUEST,
                                "no resource holds an IP")));
        assertThat(others.read()).isEqualTo(StoredClientQuotas.EMPTY);
    }

    private List<Map<String, String>> entities(List<Component> filter, boolean strict) {
        Described described = quotas.describe(filter, strict);
        assertThat(described.outcome().succeeded()).isTrue();
        return described.entries().stream().map(Entry::entity).toList();
    }

    /** An entity whose parts may name the default entity (a null name), which Map.of cannot hold. */
    private static Map<String, String> entity(String... typesAndNames) {
        Map<String, String> entity = new HashMap<>();
        for (int i = 0; i < typesAndNames.length; i += 2) {
            entity.put(typesAndNames[i], typesAndNames[i + 1]);
        }
        return entity;
    }

    @Test
    void anotherStoreGetsOneChangePerValidUserAndItsRefusedNamesAnswerInvalidRequest() {
        Map<String, UnaryOperator<UserQuotas>> written = new HashMap<>();
        UserWriter kafkaUsers = new UserWriter() {
            @Override
            public Optional<String> refusal(String user) {
                return user.equals("Erin") ? Optional.of("no KafkaUser can be named Erin") : Optional.empty();
            }

            @Override
            public Map<String, Refusal> alterScram(Map<String, ScramChange> changes) {
                throw new AssertionError("not a SCRAM request");
            }

            @Override
            public void alterQuotas(Map<String, UnaryOperator<UserQuotas>> changes) {
                written.putAll(changes);
            }
        };
        ClientQuotaService clustered = new ClientQuotaService(CredentialCache.load(store), kafkaUsers, others::read,
                ClientQuotaWriter.refusing("no resource holds it"));

        assertThat(clustered.alter(List.of(
                new Alteration(Map.of("user", "alice"), List.of(new Op("request_percentage", null),
                        new Op("producer_byte_rate", 2048.0))),
                new Alteration(Map.of("user", "Erin"), List.of(new Op("producer_byte_rate", 2048.0)))), false))
                .containsExactly(new Altered(Map.of("user", "alice"), Outcome.OK),
                        new Altered(Map.of("user", "Erin"), new Outcome(KafkaError.INVALID_REQUEST,
                                "no KafkaUser can be named Erin")));
        assertThat(written).containsOnlyKeys("alice");
        assertThat(written.get("alice").apply(new UserQuotas(1L, 2L, 3.0, 4.0)))
                .isEqualTo(new UserQuotas(2048L, 2L, null, 4.0));
    }

    @Test
    void validateOnlyAnswersWithoutWriting() {
        assertThat(quotas.alter(List.of(new Alteration(Map.of("user", "dave"),
                List.of(new Op("producer_byte_rate", 1024.0)))), true))
                .containsExactly(new Altered(Map.of("user", "dave"), Outcome.OK));
        assertThat(store.read().user("dave")).isEmpty();
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
