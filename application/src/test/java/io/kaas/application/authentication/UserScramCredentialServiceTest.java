package io.kaas.application.authentication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.application.memory.InMemoryCredentialStore;
import io.kaas.application.port.in.Outcome;
import io.kaas.application.port.in.UserScramCredentialsUseCase.Altered;
import io.kaas.application.port.in.UserScramCredentialsUseCase.CredentialInfo;
import io.kaas.application.port.in.UserScramCredentialsUseCase.Deletion;
import io.kaas.application.port.in.UserScramCredentialsUseCase.Described;
import io.kaas.application.port.in.UserScramCredentialsUseCase.Upsertion;
import io.kaas.application.port.out.UserWriter;
import io.kaas.application.port.out.UserWriter.ScramChange;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.security.ScramCredential;
import io.kaas.domain.security.ScramMechanism;
import io.kaas.domain.security.UserQuotas;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

class UserScramCredentialServiceTest {
    private static final Optional<ScramMechanism> SHA_512 = Optional.of(ScramMechanism.SCRAM_SHA_512);
    private static final Optional<ScramMechanism> SHA_256 = Optional.of(ScramMechanism.SCRAM_SHA_256);
    private static final byte[] SALT = "salt".getBytes(StandardCharsets.UTF_8);

    private final InMemoryCredentialStore store = new InMemoryCredentialStore();
    private final CredentialCache cache = CredentialCache.load(store);
    private final UserScramCredentialService service = new UserScramCredentialService(cache, new StoredUserWriter(cache));

    @Test
    void anUpsertionStoresTheCredentialTheSaltedPasswordDerivesAndDescribeShowsIt() {
        assertThat(service.alter(List.of(), List.of(upsert("alice", SHA_512, "s3cret", 8192))))
                .containsExactly(new Altered("alice", Outcome.OK));

        ScramCredential stored = store.read().user("alice").orElseThrow().scram(ScramMechanism.SCRAM_SHA_512).orElseThrow();
        assertThat(stored.matches(ScramMechanism.SCRAM_SHA_512, "s3cret")).isTrue();
        assertThat(stored.iterations()).isEqualTo(8192);
        assertThat(service.describe(List.of("alice"))).containsExactly(new Described("alice", Outcome.OK,
                List.of(new CredentialInfo(ScramMechanism.SCRAM_SHA_512, 8192))));
    }

    @Test
    void describingEveryoneListsOnlyUsersWithScramCredentialsAndUnknownOrRepeatedNamesFail() {
        service.alter(List.of(), List.of(upsert("alice", SHA_512, "a", 4096), upsert("bob", SHA_256, "b", 4096)));

        assertThat(service.describe(List.of())).extracting(Described::user).containsExactly("alice", "bob");
        assertThat(service.describe(List.of("carol", "bob", "bob"))).containsExactly(
                new Described("carol", new Outcome(KafkaError.RESOURCE_NOT_FOUND,
                        "Attempt to describe a user credential that does not exist: carol"), List.of()),
                new Described("bob", new Outcome(KafkaError.DUPLICATE_RESOURCE,
                        "Cannot describe SCRAM credentials for the same user twice in a single request: bob"), List.of()));
    }

    @Test
    void invalidUpsertionsGetApachesErrorsAndLeaveTheUserUnchanged() {
        List<Altered> altered = service.alter(List.of(), List.of(
                upsert("few", SHA_512, "pw", 4095),
                upsert("many", SHA_512, "pw", 16385),
                new Upsertion("nosalt", SHA_512, 4096, new byte[0], new byte[32]),
                new Upsertion("nopassword", SHA_512, 4096, SALT, new byte[0]),
                upsert("", SHA_512, "pw", 4096),
                upsert("unknown", Optional.empty(), "pw", 4096)));

        assertThat(altered).containsExactly(
                new Altered("few", new Outcome(KafkaError.UNACCEPTABLE_CREDENTIAL, "Too few iterations")),
                new Altered("many", new Outcome(KafkaError.UNACCEPTABLE_CREDENTIAL, "Too many iterations")),
                new Altered("nosalt", new Outcome(KafkaError.UNACCEPTABLE_CREDENTIAL, "Salt must not be empty")),
                new Altered("nopassword", new Outcome(KafkaError.UNACCEPTABLE_CREDENTIAL,
                        "Salted password must not be empty")),
                new Altered("", new Outcome(KafkaError.UNACCEPTABLE_CREDENTIAL, "Username must not be empty")),
                new Altered("unknown", new Outcome(KafkaError.UNSUPPORTED_SASL_MECHANISM, "Unknown SCRAM mechanism")));
        assertThat(store.read().users()).isEmpty();
    }

    @Test
    void aUserAlteredTwiceForOneMechanismFailsWholeWhileOthersInTheRequestSucceed() {
        service.alter(List.of(), List.of(upsert("alice", SHA_512, "old", 4096)));

        List<Altered> altered = service.alter(List.of(new Deletion("alice", SHA_512)),
                List.of(upsert("alice", SHA_512, "new", 4096), upsert("bob", SHA_256, "b", 4096)));

        assertThat(altered).containsExactly(
                new Altered("alice", new Outcome(KafkaError.DUPLICATE_RESOURCE,
                        "A user credential cannot be altered twice in the same request")),
                new Altered("bob", Outcome.OK));
        assertThat(cache.current().user("alice").orElseThrow().scram(ScramMechanism.SCRAM_SHA_512).orElseThrow()
                .matches(ScramMechanism.SCRAM_SHA_512, "old")).isTrue();
        assertThat(cache.current().user("bob")).isPresent();
    }

    @Test
    void deletingRemovesOneMechanismThenTheUserAndAMissingCredentialIsNotFound() {
        service.alter(List.of(), List.of(upsert("alice", SHA_512, "a", 4096), upsert("alice", SHA_256, "a", 4096)));

        assertThat(service.alter(List.of(new Deletion("alice", SHA_256)), List.of()))
                .containsExactly(new Altered("alice", Outcome.OK));
        assertThat(service.describe(List.of("alice")).get(0).credentials())
                .containsExactly(new CredentialInfo(ScramMechanism.SCRAM_SHA_512, 4096));
        assertThat(service.alter(List.of(new Deletion("alice", SHA_256)), List.of())).containsExactly(new Altered("alice",
                new Outcome(KafkaError.RESOURCE_NOT_FOUND, "Attempt to delete a user credential that does not exist")));

        service.alter(List.of(new Deletion("alice", SHA_512)), List.of());
        assertThat(store.read().users()).isEmpty();
    }

    @Test
    void anotherStoreGetsEachValidUsersChangeWholeAndItsRefusalsReachTheUser() {
        Map<String, ScramChange> written = new LinkedHashMap<>();
        UserWriter kafkaUsers = new UserWriter() {
            @Override
            public Optional<String> refusal(String user) {
                return user.equals("Carol") ? Optional.of("no KafkaUser can be named Carol") : Optional.empty();
            }

            @Override
            public Map<String, Refusal> alterScram(Map<String, ScramChange> changes) {
                written.putAll(changes);
                return Map.of("bob", new Refusal(KafkaError.RESOURCE_NOT_FOUND, "bob has no SCRAM-SHA-256"));
            }

            @Override
            public void alterQuotas(Map<String, UnaryOperator<UserQuotas>> changes) {
                throw new AssertionError("not a quota request");
            }
        };
        UserScramCredentialService clustered = new UserScramCredentialService(cache, kafkaUsers);

        List<Altered> altered = clustered.alter(List.of(new Deletion("bob", SHA_256), new Deletion("alice", SHA_256)),
                List.of(upsert("alice", SHA_512, "a", 4096), upsert("Carol", SHA_512, "c", 4096),
                        upsert("dave", SHA_512, "d", 100)));

        assertThat(altered).containsExactly(
                new Altered("bob", new Outcome(KafkaError.RESOURCE_NOT_FOUND, "bob has no SCRAM-SHA-256")),
                new Altered("alice", Outcome.OK),
                new Altered("Carol", new Outcome(KafkaError.UNACCEPTABLE_CREDENTIAL, "no KafkaUser can be named Carol")),
                new Altered("dave", new Outcome(KafkaError.UNACCEPTABLE_CREDENTIAL, "Too few iterations")));
        assertThat(written).containsOnlyKeys("bob", "alice");
        assertThat(written.get("bob").deleted()).containsExactly(ScramMechanism.SCRAM_SHA_256);
        assertThat(written.get("alice").deleted()).containsExactly(ScramMechanism.SCRAM_SHA_256);
        assertThat(written.get("alice").upserted().get(ScramMechanism.SCRAM_SHA_512)
                .matches(ScramMechanism.SCRAM_SHA_512, "a")).isTrue();
        assertThat(store.read().users()).isEmpty();
    }

    @Test
    void settingAPasswordDerivesTheSaltedCredentialAndRefusesWeakInput() {
        service.setPassword("alice", ScramMechanism.SCRAM_SHA_256, "s3cret", SALT, 4096);
        service.setPassword("alice", ScramMechanism.SCRAM_SHA_512, "other", SALT, 8192);

        assertThat(store.read().user("alice").orElseThrow().scram(ScramMechanism.SCRAM_SHA_256).orElseThrow()
                .matches(ScramMechanism.SCRAM_SHA_256, "s3cret")).isTrue();
        assertThat(service.describe(List.of("alice")).get(0).credentials()).containsExactly(
                new CredentialInfo(ScramMechanism.SCRAM_SHA_256, 4096),
                new CredentialInfo(ScramMechanism.SCRAM_SHA_512, 8192));
        assertThatThrownBy(() -> service.setPassword("bob", ScramMechanism.SCRAM_SHA_512, "pw", SALT, 100))
                .hasMessage("Too few iterations");
        assertThatThrownBy(() -> service.setPassword("bob", ScramMechanism.SCRAM_SHA_512, "", SALT, 4096))
                .hasMessage("Password must not be empty");
        assertThatThrownBy(() -> service.setPassword("bob", ScramMechanism.SCRAM_SHA_512, "pw", new byte[0], 4096))
                .hasMessage("Salt must not be empty");
    }

    private static Upsertion upsert(String user, Optional<ScramMechanism> mechanism, String password, int iterations) {
        byte[] salted = ScramCredential.saltedPassword(mechanism.orElse(ScramMechanism.SCRAM_SHA_512), password, SALT,
                Math.max(iterations, 1));
        return new Upsertion(user, mechanism, iterations, SALT, salted);
    }
}
