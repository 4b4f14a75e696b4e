package io.kaas.application.port.in;

import io.kaas.domain.security.ScramMechanism;
import java.util.List;
import java.util.Optional;

/**
 * SCRAM users over the wire (KIP-554): DescribeUserScramCredentials and AlterUserScramCredentials,
 * with Apache's per-user outcomes. Alterations write the broker's user store ({@code credentials.json},
 * or KafkaUsers in a cluster): call {@link #alter} from an I/O thread.
 */
public interface UserScramCredentialsUseCase {

    /** A credential as Describe shows it: never key material, only mechanism and iterations. */
    record CredentialInfo(ScramMechanism mechanism, int iterations) {
    }

    /** One described user: its credentials, or why it cannot be described. */
    record Described(String user, Outcome outcome, List<CredentialInfo> credentials) {
    }

    /** Removes a user's credential for one mechanism; an empty mechanism is one the broker does not know. */
    record Deletion(String user, Optional<ScramMechanism> mechanism) {
    }

    /**
     * Sets a user's credential for one mechanism from what the client derived: the salt, the
     * iterations and {@code SaltedPassword} (the password itself never travels).
     */
    record Upsertion(String user, Optional<ScramMechanism> mechanism, int iterations, byte[] salt,
                     byte[] saltedPassword) {
    }

    /** How the alterations of one user ended; every user named in a request gets exactly one. */
    record Altered(String user, Outcome outcome) {
    }

    /** @param users the users to describe; empty for every user with a SCRAM credential */
    List<Described> describe(List<String> users);

    /** Applies the alterations user by user: a user with any invalid alteration keeps its credentials unchanged. */
    List<Altered> alter(List<Deletion> deletions, List<Upsertion> upsertions);
}
