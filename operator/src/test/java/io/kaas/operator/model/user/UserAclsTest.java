package io.kaas.operator.model.user;

import static io.kaas.operator.model.user.Users.user;
import static io.kaas.operator.model.user.Users.withAcl;
import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.adapter.k8s.crd.AclOperation;
import io.kaas.adapter.k8s.crd.AclPatternType;
import io.kaas.adapter.k8s.crd.AclResourceType;
import io.kaas.adapter.k8s.crd.AclRuleType;
import io.kaas.adapter.k8s.crd.AuthenticationType;
import io.kaas.adapter.k8s.crd.KafkaUser;
import io.kaas.domain.security.AclBinding;
import io.kaas.domain.security.AclPermission;
import io.kaas.domain.security.KafkaPrincipal;
import io.kaas.operator.model.Refusal;
import java.util.List;
import org.junit.jupiter.api.Test;

class UserAclsTest {
    private static final KafkaPrincipal ALICE = KafkaPrincipal.user("alice");

    @Test
    void eachOperationOfARuleIsABindingWithStrimzisDefaults() {
        KafkaUser alice = withAcl(user("alice", AuthenticationType.SCRAM_SHA_512), AclResourceType.TOPIC, "orders",
                null, null, null, AclOperation.READ, AclOperation.DESCRIBE);

        assertThat(bindings(alice)).containsExactly(
                binding(ALICE, "*", io.kaas.domain.security.AclResourceType.TOPIC, "orders",
                        io.kaas.domain.security.AclPatternType.LITERAL, io.kaas.domain.security.AclOperation.READ,
                        AclPermission.ALLOW),
                binding(ALICE, "*", io.kaas.domain.security.AclResourceType.TOPIC, "orders",
                        io.kaas.domain.security.AclPatternType.LITERAL, io.kaas.domain.security.AclOperation.DESCRIBE,
                        AclPermission.ALLOW));
    }

    @Test
    void prefixesHostsDenialsAllAndTheClusterAreMapped() {
        KafkaUser alice = user("alice", null);
        withAcl(alice, AclResourceType.GROUP, "billing-", AclPatternType.PREFIX, "10.0.0.7", AclRuleType.DENY,
                AclOperation.ALL);
        withAcl(alice, AclResourceType.CLUSTER, null, null, null, AclRuleType.ALLOW, AclOperation.IDEMPOTENT_WRITE);
        withAcl(alice, AclResourceType.TRANSACTIONAL_ID, "*", AclPatternType.LITERAL, null, null,
                AclOperation.WRITE);

        assertThat(bindings(alice)).containsExactly(
                binding(ALICE, "10.0.0.7", io.kaas.domain.security.AclResourceType.GROUP, "billing-",
                        io.kaas.domain.security.AclPatternType.PREFIXED, io.kaas.domain.security.AclOperation.ALL,
                        AclPermission.DENY),
                binding(ALICE, "*", io.kaas.domain.security.AclResourceType.CLUSTER, "kafka-cluster",
                        io.kaas.domain.security.AclPatternType.LITERAL,
                        io.kaas.domain.security.AclOperation.IDEMPOTENT_WRITE, AclPermission.ALLOW),
                binding(ALICE, "*", io.kaas.domain.security.AclResourceType.TRANSACTIONAL_ID, "*",
                        io.kaas.domain.security.AclPatternType.LITERAL, io.kaas.domain.security.AclOperation.WRITE,
                        AclPermission.ALLOW));
    }

    @Test
    void aRuleWithoutAResourceNameIsRefused() {
        KafkaUser alice = withAcl(user("alice", null), AclResourceType.TOPIC, null, null, null, null,
                AclOperation.READ);

        UserAcls.Check check = UserAcls.of(alice);

        assertThat(check).isInstanceOf(UserAcls.Invalid.class);
        Refusal refusal = ((UserAcls.Invalid) check).why();
        assertThat(refusal.reason()).isEqualTo("InvalidAcl");
        assertThat(refusal.message()).contains("spec.authorization.acls[0].resource.name");
    }

    @Test
    void theFileIsRebuiltFromEveryUserByNameAndARefusedOrDeletingUserKeepsItsBindings() {
        KafkaUser bob = withAcl(user("bob", null), AclResourceType.TOPIC, "payments", null, null, null,
                AclOperation.WRITE);
        KafkaUser alice = withAcl(user("alice", null), AclResourceType.TOPIC, "orders", null, null, null,
                AclOperation.READ);
        KafkaUser carol = withAcl(user("carol", null), AclResourceType.GROUP, null, null, null, null,
                AclOperation.READ); // refused: no group name
        KafkaUser erin = withAcl(user("erin", null), AclResourceType.TOPIC, "new", null, null, null,
                AclOperation.READ);
        erin.getMetadata().setDeletionTimestamp("2026-12-02T05:00:00Z"); // being deleted: keeps what it had
        AclBinding erinsOld = binding(KafkaPrincipal.user("erin"), "*", io.kaas.domain.security.AclResourceType.TOPIC,
                "old", io.kaas.domain.security.AclPatternType.LITERAL, io.kaas.domain.security.AclOperation.READ,
                AclPermission.ALLOW);
        AclBinding carolsOld = binding(KafkaPrincipal.user("carol"), "*", io.kaas.domain.security.AclResourceType.TOPIC,
                "audit", io.kaas.domain.security.AclPatternType.LITERAL, io.kaas.domain.security.AclOperation.READ,
                AclPermission.ALLOW);
        AclBinding deletedUsers = binding(KafkaPrincipal.user("dave"), "*",
                io.kaas.domain.security.AclResourceType.TOPIC, "orders", io.kaas.domain.security.AclPatternType.LITERAL,
                io.kaas.domain.security.AclOperation.READ, AclPermission.ALLOW);

        List<AclBinding> rebuilt = UserAcls.rebuild(List.of(bob, erin, carol, alice), List.of(deletedUsers, carolsOld,
                erinsOld));

        assertThat(rebuilt).extracting(b -> b.principal().name() + " " + b.operation() + " " + b.resourceName())
                .containsExactly("alice READ orders", "bob WRITE payments", "carol READ audit", "erin READ old");
    }

    private static List<AclBinding> bindings(KafkaUser user) {
        UserAcls.Check check = UserAcls.of(user);
        assertThat(check).isInstanceOf(UserAcls.Valid.class);
        return ((UserAcls.Valid) check).bindings();
    }

    private static AclBinding binding(KafkaPrincipal principal, String host,
                                      io.kaas.domain.security.AclResourceType type, String name,
                                      io.kaas.domain.security.AclPatternType pattern,
                                      io.kaas.domain.security.AclOperation operation, AclPermission permission) {
        return new AclBinding(principal, host, type, name, pattern, operation, permission);
    }
}
