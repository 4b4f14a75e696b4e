package io.kaas.adapter.fs;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.domain.quota.QuotaEntity;
import io.kaas.domain.quota.QuotaEntity.Name;
import io.kaas.domain.quota.StoredClientQuotas;
import io.kaas.domain.security.AclBinding;
import io.kaas.domain.security.AclOperation;
import io.kaas.domain.security.AclPatternType;
import io.kaas.domain.security.AclPermission;
import io.kaas.domain.security.AclResourceType;
import io.kaas.domain.security.Credentials;
import io.kaas.domain.security.KafkaPrincipal;
import io.kaas.domain.security.ScramCredential;
import io.kaas.domain.security.ScramMechanism;
import io.kaas.domain.security.StoredUser;
import io.kaas.domain.security.UserQuotas;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JsonSecurityStoresTest {
    private static final byte[] SALT = "salt".getBytes(StandardCharsets.UTF_8);
    @TempDir
    Path dir;

    private JsonFiles files() {
        return new JsonFiles(new NioFilesystem(), new JacksonCodec());
    }

    @Test
    void nothingBeforeAnyoneWroteThem() {
        assertThat(new JsonCredentialStore(new DataLayout(dir), files()).read()).isEqualTo(Credentials.EMPTY);
        assertThat(new JsonAclStore(new DataLayout(dir), files()).read()).isEmpty();
        assertThat(new JsonClientQuotaStore(new DataLayout(dir), files()).read()).isEqualTo(StoredClientQuotas.EMPTY);
    }

    @Test
    void clientQuotasRoundTripEveryEntityKindWithDefaultsAsNullNames() throws Exception {
        JsonClientQuotaStore store = new JsonClientQuotaStore(new DataLayout(dir), files());
        StoredClientQuotas quotas = new StoredClientQuotas(Map.of(
                QuotaEntity.clientId(Name.of("app")), Map.of("producer_byte_rate", 1024.0),
                QuotaEntity.clientId(Name.DEFAULT), Map.of("consumer_byte_rate", 2048.0),
                QuotaEntity.user(Name.DEFAULT), Map.of("request_percentage", 12.5),
                QuotaEntity.userAndClientId(Name.of("alice"), Name.DEFAULT), Map.of("producer_byte_rate", 1.0),
                QuotaEntity.userAndClientId(Name.DEFAULT, Name.of("app")), Map.of("controller_mutation_rate", 3.0)));

        store.write(quotas);

        assertThat(store.read()).isEqualTo(quotas);
        assertThat(Files.readString(dir.resolve("__cluster/client-quotas.json")))
                .contains("\"type\" : \"client-id\"").contains("\"name\" : null").contains("\"producer_byte_rate\"");
    }

    @Test
    void credentialsRoundTripUnderMechanismNamesAndApacheQuotaNames() throws Exception {
        JsonCredentialStore store = new JsonCredentialStore(new DataLayout(dir), files());
        StoredUser alice = new StoredUser("alice", Map.of(
                ScramMechanism.SCRAM_SHA_512, ScramCredential.derive(ScramMechanism.SCRAM_SHA_512, "a", SALT, 4096),
                ScramMechanism.SCRAM_SHA_256, ScramCredential.derive(ScramMechanism.SCRAM_SHA_256, "a", SALT, 8192)),
                new UserQuotas(1_048_576L, null, 25.0, 2.5));
        StoredUser tlsUser = new StoredUser("CN=app", Map.of(), null);

        store.write(Credentials.EMPTY.with(alice).with(tlsUser));

        Credentials read = store.read();
        assertThat(read.users()).containsOnlyKeys("alice", "CN=app");
        assertThat(read.user("alice")).hasValue(alice);
        assertThat(read.user("alice").orElseThrow().scram(ScramMechanism.SCRAM_SHA_512).orElseThrow()
                .matches(ScramMechanism.SCRAM_SHA_512, "a")).isTrue();
        assertThat(read.user("CN=app").orElseThrow().scram()).isEmpty();
        String json = Files.readString(dir.resolve("__cluster/credentials.json"), StandardCharsets.UTF_8)
                .replaceAll("\\s", "");
        assertThat(json).startsWith("{\"version\":1,\"users\":{").contains("\"SCRAM-SHA-512\":{\"salt\":\"",
                "\"iterations\":8192", "\"producer_byte_rate\":1048576", "\"request_percentage\":25.0",
                "\"controller_mutation_rate\":2.5").doesNotContain("consumer_byte_rate");
    }

    @Test
    void anUnknownMechanismFromANewerWriterIsSkipped() throws Exception {
        Files.createDirectories(dir.resolve("__cluster"));
        Files.writeString(dir.resolve("__cluster/credentials.json"), "{\"version\":1,\"users\":{\"bob\":{\"scram\":"
                + "{\"SCRAM-SHA-1024\":{\"salt\":\"AA==\",\"iterations\":4096,\"storedKey\":\"AA==\",\"serverKey\":\"AA==\"}},"
                + "\"quotas\":null}}}");

        assertThat(new JsonCredentialStore(new DataLayout(dir), files()).read().user("bob").orElseThrow().scram())
                .isEmpty();
    }

    @Test
    void aclsRoundTripWithApacheEnumNames() throws Exception {
        JsonAclStore store = new JsonAclStore(new DataLayout(dir), files());
        List<AclBinding> acls = List.of(
                new AclBinding(KafkaPrincipal.user("alice"), "*", AclResourceType.TOPIC, "orders-",
                        AclPatternType.PREFIXED, AclOperation.DESCRIBE_CONFIGS, AclPermission.ALLOW),
                new AclBinding(KafkaPrincipal.user("*"), "10.0.0.1", AclResourceType.CLUSTER,
                        AclResourceType.CLUSTER_NAME, AclPatternType.LITERAL, AclOperation.ALTER, AclPermission.DENY));

        store.write(acls);

        assertThat(store.read()).isEqualTo(acls);
        String json = Files.readString(dir.resolve("__cluster/acls.json"), StandardCharsets.UTF_8).replaceAll("\\s", "");
        assertThat(json).startsWith("{\"version\":1,\"acls\":[{\"principal\":\"User:alice\",\"host\":\"*\","
                + "\"resourceType\":\"TOPIC\",\"resourceName\":\"orders-\",\"patternType\":\"PREFIXED\","
                + "\"operation\":\"DESCRIBE_CONFIGS\",\"permission\":\"ALLOW\"}");
    }
}
