package io.kaas.adapter.k8s;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kaas.adapter.k8s.crd.AclRule;
import io.kaas.adapter.k8s.crd.AuthenticationType;
import io.kaas.adapter.k8s.crd.KafkaUser;
import io.kaas.adapter.k8s.crd.KafkaUserSpec;
import io.kaas.adapter.k8s.crd.UserAuthentication;
import io.kaas.adapter.k8s.user.KafkaUserAclWriter;
import io.kaas.adapter.k8s.user.UserAclRules;
import io.kaas.domain.security.AclBinding;
import io.kaas.domain.security.AclFilter;
import io.kaas.domain.security.AclFilter.PatternFilter;
import io.kaas.domain.security.AclOperation;
import io.kaas.domain.security.AclPatternType;
import io.kaas.domain.security.AclPermission;
import io.kaas.domain.security.AclResourceType;
import io.kaas.domain.security.KafkaPrincipal;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The cluster's ACL writer on the development API server: ACLs land on the principal's KafkaUser beside what else it
 * declares, a principal without one gets one holding only its ACLs, removals rewrite only the users a filter selects,
 * and an API server that refuses is an error, not a silent success.
 */
class KafkaUserAclWriterIT {
    private static final String NAMESPACE = "test";

    private final CrudApiServer apiServer = new CrudApiServer();
    private final KubernetesClient kubernetes = apiServer.client();
    private final KafkaUserAclWriter writer = new KafkaUserAclWriter(kubernetes, NAMESPACE, Optional.empty());

    @AfterEach
    void stop() {
        kubernetes.close();
        apiServer.close();
    }

    @Test
    void aclsJoinAnExistingUsersSpecAndLeaveItsAuthenticationAlone() {
        KafkaUser declared = new KafkaUser();
        declared.setMetadata(new ObjectMetaBuilder().withName("alice").withNamespace(NAMESPACE).build());
        KafkaUserSpec spec = new KafkaUserSpec();
        UserAuthentication scram = new UserAuthentication();
        scram.setType(AuthenticationType.SCRAM_SHA_512);
        spec.setAuthentication(scram);
        declared.setSpec(spec);
        kubernetes.resource(declared).create();

        writer.add(List.of(read("alice", "orders"), write("alice", "ord")));
        writer.add(List.of(read("alice", "orders"), describe("alice", "orders")));

        KafkaUser alice = user("alice");
        assertThat(alice.getSpec().getAuthentication().getType()).isEqualTo(AuthenticationType.SCRAM_SHA_512);
        assertThat(UserAclRules.bindings(alice)).containsExactly(read("alice", "orders"), describe("alice", "orders"),
                write("alice", "ord"));
        List<AclRule> rules = alice.getSpec().getAuthorization().getAcls();
        assertThat(rules).as("READ and DESCRIBE on orders are one rule").hasSize(2);
    }

    @Test
    void aPrincipalWithoutAKafkaUserGetsOneHoldingOnlyItsAcls() {
        writer.add(List.of(read("bob", "payments"), read("carol", "payments")));

        assertThat(user("bob").getSpec().getAuthentication()).isNull();
        assertThat(UserAclRules.bindings(user("bob"))).containsExactly(read("bob", "payments"));
        assertThat(UserAclRules.bindings(user("carol"))).containsExactly(read("carol", "payments"));
    }

    @Test
    void removalsReportPerFilterWhatWentAndRewriteOnlyTheUsersSelected() {
        writer.add(List.of(read("alice", "orders"), write("alice", "ord"), read("bob", "orders")));
        String bobVersion = user("bob").getMetadata().getResourceVersion();

        AclFilter alicesWrites = new AclFilter(null, null, PatternFilter.ANY, KafkaPrincipal.user("alice"), null,
                AclOperation.WRITE, null);
        AclFilter nothing = new AclFilter(null, null, PatternFilter.ANY, KafkaPrincipal.user("dave"), null, null, null);
        AclFilter readsOfOrders = new AclFilter(AclResourceType.TOPIC, "orders", PatternFilter.LITERAL, null, null,
                AclOperation.READ, null);
        List<List<AclBinding>> removed = writer.remove(List.of(alicesWrites, nothing, readsOfOrders));

        assertThat(removed).containsExactly(List.of(write("alice", "ord")), List.of(),
                List.of(read("alice", "orders"), read("bob", "orders")));
        assertThat(UserAclRules.bindings(user("alice"))).isEmpty();
        assertThat(user("alice")).as("removing ACLs never deletes a KafkaUser").isNotNull();
        assertThat(writer.remove(List.of(alicesWrites))).containsExactly(List.of());
        assertThat(user("bob").getMetadata().getResourceVersion()).isNotEqualTo(bobVersion);
    }

    @Test
    void anApiServerThatIsGoneFailsTheWrite() {
        try (KubernetesClient nowhere = CrudApiServer.clientOf("http://127.0.0.1:1",
                config -> config.withRequestRetryBackoffLimit(0))) {
            KafkaUserAclWriter unreachable = new KafkaUserAclWriter(nowhere, NAMESPACE, Optional.empty());

            assertThatThrownBy(() -> unreachable.add(List.of(read("alice", "orders"))))
                    .isInstanceOf(UncheckedIOException.class).hasMessageContaining("KafkaUser test/alice");
        }
    }

    private KafkaUser user(String name) {
        return kubernetes.resources(KafkaUser.class).inNamespace(NAMESPACE).withName(name).get();
    }

    private static AclBinding read(String user, String topic) {
        return topic(user, topic, AclPatternType.LITERAL, AclOperation.READ);
    }

    private static AclBinding describe(String user, String topic) {
        return topic(user, topic, AclPatternType.LITERAL, AclOperation.DESCRIBE);
    }

    private static AclBinding write(String user, String prefix) {
        return topic(user, prefix, AclPatternType.PREFIXED, AclOperation.WRITE);
    }

    private static AclBinding topic(String user, String name, AclPatternType pattern, AclOperation operation) {
        return new AclBinding(KafkaPrincipal.user(user), "*", AclResourceType.TOPIC, name, pattern, operation,
                AclPermission.ALLOW);
    }
}
