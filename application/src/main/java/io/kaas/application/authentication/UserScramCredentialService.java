package io.kaas.application.authentication;

import io.kaas.application.port.in.Outcome;
import io.kaas.application.port.in.UserScramCredentialsUseCase;
import io.kaas.application.port.out.UserWriter.ScramChange;
import io.kaas.application.port.out.UserWriter;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.security.Credentials;
import io.kaas.domain.security.ScramCredential;
import io.kaas.domain.security.ScramMechanism;
import io.kaas.domain.security.StoredUser;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * SCRAM users, with the checks and messages of Apache's ScramControlManager (alter) and ScramImage (describe).
 * Describe answers from the cached {@code credentials.json}; alter writes through a {@link UserWriter} once per
 * request: the file itself in standalone, the users' KafkaUsers in a cluster (the operator then rewrites the file and
 * every broker reloads it, so a change is in effect a reload after the answer, as Apache's brokers apply the
 * controller's record after it commits).
 */
public final class UserScramCredentialService implements UserScramCredentialsUseCase {
    private static final Logger LOG = LoggerFactory.getLogger(UserScramCredentialService.class);

    private final CredentialCache credentials;
    private final UserWriter writer;

    public UserScramCredentialService(CredentialCache credentials, UserWriter writer) {
        this.credentials = credentials;
        this.writer = writer;
    }

    @Override
    public List<Described> describe(List<String> users) {
        Credentials now = credentials.current();
        List<Described> described = new ArrayList<>();
        if (users.isEmpty()) {
            now.users().values().stream().filter(u -> !u.scram().isEmpty())
                    .forEach(u -> described.add(new Described(u.name(), Outcome.OK, infos(u))));
            return described;
        }
        Set<String> seen = new HashSet<>();
        Set<String> duplicated = new HashSet<>();
        users.forEach(u -> {
            if (!seen.add(u)) {
                duplicated.add(u);
            }
        });
        for (String name : new LinkedHashSet<>(users)) {
            Optional<StoredUser> user = now.user(name).filter(u -> !u.scram().isEmpty());
            if (duplicated.contains(name)) {
                described.add(new Described(name, new Outcome(KafkaError.DUPLICATE_RESOURCE,
                        "Cannot describe SCRAM credentials for the same user twice in a single request: " + name), List.of()));
            } else if (user.isEmpty()) {
                described.add(new Described(name, new Outcome(KafkaError.RESOURCE_NOT_FOUND,
                        "Attempt to describe a user credential that does not exist: " + name), List.of()));
            } else {
                described.add(new Described(name, Outcome.OK, infos(user.get())));
            }
        }
        return described;
    }

    private static List<CredentialInfo> infos(StoredUser user) {
        List<CredentialInfo> infos = new ArrayList<>();
        user.scram().forEach((mechanism, credential) -> infos.add(new CredentialInfo(mechanism, credential.iterations())));
        return infos;
    }

    @Override
    public List<Altered> alter(List<Deletion> deletions, List<Upsertion> upsertions) {
        Map<String, Outcome> outcomes = new LinkedHashMap<>();
        deletions.forEach(d -> outcomes.putIfAbsent(d.user(), Outcome.OK));
        upsertions.forEach(u -> outcomes.putIfAbsent(u.user(), Outcome.OK));
        Set<String> pairs = new HashSet<>();
        deletions.forEach(d -> rejectTwice(outcomes, pairs, d.user(), d.mechanism()));
        upsertions.forEach(u -> rejectTwice(outcomes, pairs, u.user(), u.mechanism()));
        // Derived up front, off the file's lock: each upsertion costs two HMACs and a hash.
        Map<Upsertion, ScramCredential> derived = new LinkedHashMap<>();
        for (Upsertion u : upsertions) {
            Outcome invalid = validateUpsertion(u);
            if (invalid != null) {
                fail(outcomes, u.user(), invalid);
            } else if (outcomes.get(u.user()).succeeded()) {
                derived.put(u, ScramCredential.fromSaltedPassword(u.mechanism().get(), u.saltedPassword(), u.salt(),
                        u.iterations()));
            }
        }
        deletions.forEach(d -> {
            Outcome invalid = validateName(d.user(), d.mechanism());
            if (invalid != null) {
                fail(outcomes, d.user(), invalid);
            }
        });
        // What Apache accepts but this broker's store cannot hold (a name no KafkaUser can have).
        outcomes.keySet().forEach(user -> writer.refusal(user).ifPresent(why ->
                fail(outcomes, user, new Outcome(KafkaError.UNACCEPTABLE_CREDENTIAL, why))));
        if (outcomes.values().stream().noneMatch(Outcome::succeeded)) {
            return altered(outcomes);
        }
        Map<String, ScramChange> changes = new LinkedHashMap<>();
        outcomes.forEach((user, outcome) -> {
            if (outcome.succeeded()) {
                changes.put(user, new ScramChange(new LinkedHashSet<>(), new LinkedHashMap<>()));
            }
        });
        deletions.stream().filter(d -> changes.containsKey(d.user()))
                .forEach(d -> changes.get(d.user()).deleted().add(d.mechanism().get()));
        derived.entrySet().stream().filter(e -> changes.containsKey(e.getKey().user())).forEach(e ->
                changes.get(e.getKey().user()).upserted().put(e.getKey().mechanism().get(), e.getValue()));
        try {
            writer.alterScram(changes).forEach((user, refusal) -> fail(outcomes, user,
                    new Outcome(refusal.error(), refusal.message())));
        } catch (RuntimeException e) {
            LOG.warn("SCRAM credentials of {} could not be written", changes.keySet(), e);
            changes.keySet().forEach(user -> fail(outcomes, user, new Outcome(KafkaError.UNKNOWN_SERVER_ERROR,
                    "the credentials could not be written: " + e.getMessage())));
        }
        outcomes.forEach((user, outcome) -> LOG.info("SCRAM credentials of {} altered: {}", user,
                outcome.succeeded() ? "ok" : outcome.error() + " " + outcome.message()));
        return altered(outcomes);
    }

    /**
     * Sets one user's credential from a password, as {@code ./kaas user add} does. File I/O.
     *
     * @param salt a fresh random salt (drawn by the caller: the core has no randomness of its own)
     * @throws IllegalArgumentException for an empty name, password or salt, or too few or too many iterations
     */
    public void setPassword(String user, ScramMechanism mechanism, String password, byte[] salt, int iterations) {
        Outcome invalid = validateName(user, Optional.of(mechanism));
        if (invalid == null) {
            invalid = validateIterations(iterations);
        }
        if (invalid == null && password.isEmpty()) {
            invalid = new Outcome(KafkaError.UNACCEPTABLE_CREDENTIAL, "Password must not be empty");
        }
        if (invalid == null && salt.length == 0) {
            invalid = new Outcome(KafkaError.UNACCEPTABLE_CREDENTIAL, "Salt must not be empty");
        }
        if (invalid != null) {
            throw new IllegalArgumentException(invalid.message());
        }
        ScramCredential credential = ScramCredential.derive(mechanism, password, salt, iterations);
        credentials.update(current -> current.with(current.user(user)
                .orElseGet(() -> new StoredUser(user, Map.of(), null)).withScram(mechanism, credential)));
    }

    private static void rejectTwice(Map<String, Outcome> outcomes, Set<String> pairs, String user,
                                    Optional<ScramMechanism> mechanism) {
        String pair = user + "\u0000" + mechanism.map(Enum::name).orElse("UNKNOWN");
        if (!pairs.add(pair)) {
            fail(outcomes, user, new Outcome(KafkaError.DUPLICATE_RESOURCE,
                    "A user credential cannot be altered twice in the same request"));
        }
    }

    private static Outcome validateUpsertion(Upsertion u) {
        Outcome invalid = validateName(u.user(), u.mechanism());
        if (invalid != null) {
            return invalid;
        }
        invalid = validateIterations(u.iterations());
        if (invalid != null) {
            return invalid;
        }
        if (u.salt() == null || u.salt().length == 0) {
            return new Outcome(KafkaError.UNACCEPTABLE_CREDENTIAL, "Salt must not be empty");
        }
        if (u.saltedPassword() == null || u.saltedPassword().length == 0) {
            return new Outcome(KafkaError.UNACCEPTABLE_CREDENTIAL, "Salted password must not be empty");
        }
        return null;
    }

    private static Outcome validateName(String user, Optional<ScramMechanism> mechanism) {
        if (user == null || user.isEmpty()) {
            return new Outcome(KafkaError.UNACCEPTABLE_CREDENTIAL, "Username must not be empty");
        }
        if (mechanism.isEmpty()) {
            return new Outcome(KafkaError.UNSUPPORTED_SASL_MECHANISM, "Unknown SCRAM mechanism");
        }
        return null;
    }

    private static Outcome validateIterations(int iterations) {
        if (iterations < ScramMechanism.MIN_ITERATIONS) {
            return new Outcome(KafkaError.UNACCEPTABLE_CREDENTIAL, "Too few iterations");
        }
        if (iterations > ScramMechanism.MAX_ITERATIONS) {
            return new Outcome(KafkaError.UNACCEPTABLE_CREDENTIAL, "Too many iterations");
        }
        return null;
    }

    /** The first error a user meets is the one it reports. */
    private static void fail(Map<String, Outcome> outcomes, String user, Outcome error) {
        if (outcomes.get(user).succeeded()) {
            outcomes.put(user, error);
        }
    }

    private static List<Altered> altered(Map<String, Outcome> outcomes) {
        List<Altered> altered = new ArrayList<>();
        outcomes.forEach((user, outcome) -> altered.add(new Altered(user, outcome)));
        return altered;
    }
}
