package io.kaas.adapter.fs;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.kaas.application.port.out.CredentialStore;
import io.kaas.domain.security.Credentials;
import io.kaas.domain.security.ScramCredential;
import io.kaas.domain.security.ScramMechanism;
import io.kaas.domain.security.StoredUser;
import io.kaas.domain.security.UserQuotas;
import java.nio.file.Path;
import java.util.Base64;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code __cluster/credentials.json}: a format version and the users by name, each with its SCRAM
 * credentials keyed by SASL mechanism name (salt, storedKey and serverKey base64) and its quotas under
 * Apache's config names. Written whole with temp + fsync + rename. An unknown mechanism name is skipped
 * (a newer writer's), never fatal.
 */
public final class JsonCredentialStore implements CredentialStore {
    static final int FORMAT_VERSION = 1;

    private final Path file;
    private final JsonFiles files;

    public JsonCredentialStore(DataLayout layout, JsonFiles files) {
        this.file = layout.credentialsFile();
        this.files = files;
    }

    @Override
    public Credentials read() {
        return files.read(file, CredentialsFile.class).map(CredentialsFile::toCredentials).orElse(Credentials.EMPTY);
    }

    @Override
    public void write(Credentials credentials) {
        files.write(file, CredentialsFile.of(credentials));
    }

    record CredentialsFile(int version, Map<String, UserEntry> users) {
        static CredentialsFile of(Credentials credentials) {
            Map<String, UserEntry> users = new TreeMap<>();
            credentials.users().forEach((name, user) -> users.put(name, UserEntry.of(user)));
            return new CredentialsFile(FORMAT_VERSION, users);
        }

        Credentials toCredentials() {
            Map<String, StoredUser> byName = new TreeMap<>();
            if (users != null) {
                users.forEach((name, entry) -> byName.put(name, entry.toUser(name)));
            }
            return new Credentials(byName);
        }
    }

    record UserEntry(Map<String, ScramEntry> scram, QuotaEntry quotas) {
        static UserEntry of(StoredUser user) {
            Map<String, ScramEntry> scram = new LinkedHashMap<>();
            user.scram().forEach((mechanism, credential) -> scram.put(mechanism.mechanismName(),
                    ScramEntry.of(credential)));
            UserQuotas q = user.quotas();
            return new UserEntry(scram, q.isEmpty() ? null
                    : new QuotaEntry(q.producerByteRate(), q.consumerByteRate(), q.requestPercentage(),
                            q.controllerMutationRate()));
        }

        StoredUser toUser(String name) {
            Map<ScramMechanism, ScramCredential> credentials = new EnumMap<>(ScramMechanism.class);
            if (scram != null) {
                scram.forEach((mechanismName, entry) -> ScramMechanism.byName(mechanismName)
                        .ifPresent(mechanism -> credentials.put(mechanism, entry.toCredential())));
            }
            UserQuotas q = quotas == null ? UserQuotas.NONE
                    : new UserQuotas(quotas.producer_byte_rate(), quotas.consumer_byte_rate(),
                            quotas.request_percentage(), quotas.controller_mutation_rate());
            return new StoredUser(name, credentials, q);
        }
    }

    record ScramEntry(String salt, int iterations, String storedKey, String serverKey) {
        static ScramEntry of(ScramCredential c) {
            Base64.Encoder b64 = Base64.getEncoder();
            return new ScramEntry(b64.encodeToString(c.salt()), c.iterations(), b64.encodeToString(c.storedKey()),
                    b64.encodeToString(c.serverKey()));
        }

        ScramCredential toCredential() {
            Base64.Decoder b64 = Base64.getDecoder();
            return new ScramCredential(b64.decode(salt), b64.decode(storedKey), b64.decode(serverKey), iterations);
        }
    }

    /** Apache's quota names, so the file reads like {@code kafka-configs --describe}; a quota not set is omitted. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record QuotaEntry(Long producer_byte_rate, Long consumer_byte_rate, Double request_percentage,
                      Double controller_mutation_rate) {
    }
}
