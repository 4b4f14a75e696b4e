package io.kaas.application.port.out;

import io.kaas.domain.error.KafkaError;
import io.kaas.domain.security.ScramCredential;
import io.kaas.domain.security.ScramMechanism;
import io.kaas.domain.security.UserQuotas;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * Where the SCRAM and quota admin APIs write users: {@code credentials.json} itself in standalone; in a cluster the
 * KafkaUsers the operator writes {@code credentials.json} from. Calls do I/O: make them from an I/O or control thread.
 */
public interface UserWriter {

    /** One user's SCRAM change: the mechanisms whose credential goes, then the credentials set. */
    record ScramChange(Set<ScramMechanism> deleted, Map<ScramMechanism, ScramCredential> upserted) {
    }

    /** Why a user's change was not written. */
    record Refusal(KafkaError error, String message) {
    }

    /** Why this writer cannot hold the user named {@code user} at all; empty when it can. */
    default Optional<String> refusal(String user) {
        return Optional.empty();
    }

    /**
     * Applies each user's SCRAM change, user by user: a user's change is written whole or not at all; durable when it
     * returns. A user left with neither credentials nor quotas (nor, in a cluster, ACLs) is gone, as in Apache.
     *
     * @return the users whose change was not written, each with why: RESOURCE_NOT_FOUND when it deletes a credential
     *         the user does not have
     * @throws java.io.UncheckedIOException when the changes could not be written
     */
    Map<String, Refusal> alterScram(Map<String, ScramChange> changes);

    /**
     * Rewrites each user's quotas with what its change makes of them; durable when it returns.
     *
     * @throws java.io.UncheckedIOException when the changes could not be written
     */
    void alterQuotas(Map<String, UnaryOperator<UserQuotas>> changes);
}
