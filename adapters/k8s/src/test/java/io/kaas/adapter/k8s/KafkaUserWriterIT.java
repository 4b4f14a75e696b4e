package io.kaas.adapter.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kaas.adapter.k8s.crd.AuthenticationType;
import io.kaas.adapter.k8s.crd.KafkaUser;
import io.kaas.adapter.k8s.crd.KafkaUserSpec;
import io.kaas.adapter.k8s.crd.PasswordSource;
import io.kaas.adapter.k8s.crd.PasswordValueFrom;
import io.kaas.adapter.k8s.crd.SecretKeyReference;
import io.kaas.adapter.k8s.crd.UserAuthentication;
import io.kaas.adapter.k8s.user.KafkaUserAclWriter;
import io.kaas.adapter.k8s.user.KafkaUserWriter;
import io.kaas.adapter.k8s.user.UserAclRules;
import io.kaas.application.port.out.UserWriter.Refusal;
import io.kaas.application.port.out.UserWriter.ScramChange;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.security.AclBinding;
import io.kaas.domain.security.AclOperation;
import io.kaas.domain.security.AclPatternType;
import io.kaas.domain.security.AclPermission;
import io.kaas.domain.security.AclResourceType;
import io.kaas.domain.security.KafkaPrincipal;
import io.kaas.domain.security.ScramCredential;
import io.kaas.domain.security.ScramMechanism;
import io.kaas.domain.security.UserQuotas;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The cluster's SCRAM and quota writer on the development API server: credentials land in the user's
 * {@code spec.authentication} (both mechanisms, the second in {@code additionalScram}), quotas in {@code spec.quotas}
 * under the per-broker names, a user without a KafkaUser gets one, and what else the KafkaUser declares stays.
 */
class KafkaUserWriterIT {
    private static final String NAMESPACE = "test";
    private static final ScramMechanism SHA_256 = ScramMechanism.SCRAM_SHA_256;
    private static final ScramMechanism SHA_512 = ScramMechanism.SCRAM_SHA_512;

    private final CrudApiServer apiServer = new CrudApiServer();
    private final KubernetesClient kubernetes = apiServer.client();
    private final KafkaUserWriter writer = new KafkaUserWriter(kubernetes, NAMESPACE, Optional.empty());

    @AfterEach
    void stop() {
        kubernetes.close();
        apiServer.close();
    }

    @Test
    void aNewUsersCredentialsFillItsAuthenticationOneMechanismAfterTheOther() {
        assertThat(writer.alterScram(Map.of("alice", upsert(SHA_512, "five-twelve")))).isEmpty();
        assertThat(writer.alterScram(Map.of("alice", upsert(SHA_256, "two-five-six")))).isEmpty();

        UserAuthentication authentication = user("alice").getSpec().getAuthentication();
        assertThat(authentication.getType()).isEqualTo(AuthenticationType.SCRAM_SHA_512);
        assertThat(derives(authentication.getScram(), SHA_512, "five-twelve")).isTrue();
        assertThat(derives(authentication.getAdditionalScram(), SHA_256, "two-five-six")).isTrue();

        assertThat(writer.alterScram(Map.of("alice", new ScramChange(Set.of(SHA_512), Map.of())))).isEmpty();
        authentication = user("alice").getSpec().getAuthentication();
        assertThat(authentication.getType()).as("the remaining mechanism comes first")
                .isEqualTo(AuthenticationType.SCRAM_SHA_256);
        assertThat(derives(authentication.getScram(), SHA_256, "two-five-six")).isTrue();
        assertThat(authentication.getAdditionalScram()).isNull();

        assertThat(writer.alterScram(Map.of("alice", new ScramChange(Set.of(SHA_256), Map.of())))).isEmpty();
        assertThat(user("alice").getSpec().getAuthentication()).as("no credential left: no SCRAM login").isNull();
        assertThat(writer.alterScram(Map.of("alice", new ScramChange(Set.of(SHA_256), Map.of()))))
                .containsExactly(Map.entry("alice", new Refusal(KafkaError.RESOURCE_NOT_FOUND,
                        "Attempt to delete a user credential that does not exist")));
    }

    @Test
    void aCredentialReplacesAPasswordSourceAndLeavesAclsAndQuotasAlone() {
        KafkaUser declared = new KafkaUser();
        declared.setMetadata(new ObjectMetaBuilder().withName("bob").withNamespace(NAMESPACE).build());
        KafkaUserSpec spec = new KafkaUserSpec();
        UserAuthentication scram = new UserAuthentication();
        scram.setType(AuthenticationType.SCRAM_SHA_512);
        scram.setPassword(password("bob-secret"));
        spec.setAuthentication(scram);
        declared.setSpec(spec);
        kubernetes.resource(declared).create();
        new KafkaUserAclWriter(kubernetes, NAMESPACE, Optional.empty()).add(List.of(read("bob")));
        writer.alterQuotas(Map.of("bob", q -> new UserQuotas(1024L, null, null, null)));

        writer.alterScram(Map.of("bob", upsert(SHA_256, "b")));
        assertThat(user("bob").getSpec().getAuthentication().getPassword())
                .as("the first mechanism still comes from the Secret").isNotNull();
        writer.alterScram(Map.of("bob", upsert(SHA_512, "new")));

        KafkaUser bob = user("bob");
        assertThat(bob.getSpec().getAuthentication().getPassword()).isNull();
        assertThat(derives(bob.getSpec().getAuthentication().getScram(), SHA_512, "new")).isTrue();
        assertThat(UserAclRules.bindings(bob)).containsExactly(read("bob"));
        assertThat(bob.getSpec().getQuotas().getProducerMaxByteRatePerBroker()).isEqualTo(1024L);
    }

    @Test
    void quotasUseThePerBrokerNamesAndAUserWithoutAKafkaUserGetsOne() {
        writer.alterQuotas(Map.of("carol", q -> new UserQuotas(1_048_576L, 2_048L, 12.5, 3.0)));

        var quotas = user("carol").getSpec().getQuotas();
        assertThat(quotas.getProducerMaxByteRatePerBroker()).isEqualTo(1_048_576L);
        assertThat(quotas.getConsumerMaxByteRatePerBroker()).isEqualTo(2_048L);
        assertThat(quotas.getRequestPercentage()).isEqualTo(12.5);
        assertThat(quotas.getControllerMutationRate()).isEqualTo(3.0);
        assertThat(user("carol").getSpec().getAuthentication()).isNull();

        String version = user("carol").getMetadata().getResourceVersion();
        writer.alterQuotas(Map.of("carol", q -> q));
        assertThat(user("carol").getMetadata().getResourceVersion()).as("no change, no write").isEqualTo(version);

        writer.alterQuotas(Map.of("carol", q -> UserQuotas.NONE));
        assertThat(user("carol").getSpec().getQuotas()).isNull();
        assertThat(user("carol")).as("a KafkaUser is never deleted").isNotNull();
    }

    @Test
    void aNameNoKafkaUserCanHaveIsRefused() {
        assertThat(writer.refusal("Alice@corp")).hasValueSatisfying(why -> assertThat(why).contains("Alice@corp"));
        assertThat(writer.refusal("alice.corp")).isEmpty();
    }

    private KafkaUser user(String name) {
        return kubernetes.resources(KafkaUser.class).inNamespace(NAMESPACE).withName(name).get();
    }

    private static ScramChange upsert(ScramMechanism mechanism, String password) {
        byte[] salt = ("salt-of-" + password).getBytes(StandardCharsets.UTF_8);
        return new ScramChange(Set.of(), Map.of(mechanism, ScramCredential.derive(mechanism, password, salt, 4096)));
    }

    private static boolean derives(io.kaas.adapter.k8s.crd.ScramCredential field, ScramMechanism mechanism,
                                   String password) {
        Base64.Decoder b64 = Base64.getDecoder();
        return new ScramCredential(b64.decode(field.getSalt()), b64.decode(field.getStoredKey()),
                b64.decode(field.getServerKey()), field.getIterations()).matches(mechanism, password);
    }

    private static PasswordSource password(String secret) {
        SecretKeyReference ref = new SecretKeyReference();
        ref.setName(secret);
        ref.setKey("password");
        PasswordValueFrom from = new PasswordValueFrom();
        from.setSecretKeyRef(ref);
        PasswordSource source = new PasswordSource();
        source.setValueFrom(from);
        return source;
    }

    private static AclBinding read(String user) {
        return new AclBinding(KafkaPrincipal.user(user), "*", AclResourceType.TOPIC, "orders", AclPatternType.LITERAL,
                AclOperation.READ, AclPermission.ALLOW);
    }
}
