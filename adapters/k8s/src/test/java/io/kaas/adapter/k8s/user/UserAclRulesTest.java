package io.kaas.adapter.k8s.user;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.kaas.adapter.k8s.crd.AclRule;
import io.kaas.adapter.k8s.crd.AuthorizationType;
import io.kaas.adapter.k8s.crd.KafkaUser;
import io.kaas.adapter.k8s.crd.KafkaUserSpec;
import io.kaas.adapter.k8s.crd.UserAuthorization;
import io.kaas.domain.security.AclBinding;
import io.kaas.domain.security.AclOperation;
import io.kaas.domain.security.AclPatternType;
import io.kaas.domain.security.AclPermission;
import io.kaas.domain.security.AclResourceType;
import io.kaas.domain.security.KafkaPrincipal;
import java.util.List;
import org.junit.jupiter.api.Test;

class UserAclRulesTest {
    private static final KafkaPrincipal ALICE = KafkaPrincipal.user("alice");

    @Test
    void bindingsBecomeOneRulePerResourcePatternHostAndPermissionAndReadBackUnchanged() {
        List<AclBinding> bindings = List.of(
                binding(AclResourceType.TOPIC, "orders", AclPatternType.LITERAL, AclOperation.READ, AclPermission.ALLOW),
                binding(AclResourceType.TOPIC, "orders", AclPatternType.LITERAL, AclOperation.DESCRIBE, AclPermission.ALLOW),
                binding(AclResourceType.TOPIC, "ord", AclPatternType.PREFIXED, AclOperation.WRITE, AclPermission.ALLOW),
                binding(AclResourceType.TOPIC, "orders", AclPatternType.LITERAL, AclOperation.DELETE, AclPermission.DENY),
                binding(AclResourceType.CLUSTER, AclResourceType.CLUSTER_NAME, AclPatternType.LITERAL,
                        AclOperation.IDEMPOTENT_WRITE, AclPermission.ALLOW),
                new AclBinding(ALICE, "10.0.0.1", AclResourceType.GROUP, "billing", AclPatternType.LITERAL,
                        AclOperation.READ, AclPermission.ALLOW));

        List<AclRule> rules = UserAclRules.rules(bindings);

        assertThat(rules).hasSize(5);
        assertThat(rules.get(0).getOperations()).containsExactly(io.kaas.adapter.k8s.crd.AclOperation.READ,
                io.kaas.adapter.k8s.crd.AclOperation.DESCRIBE);
        assertThat(rules.get(3).getResource().getName()).as("the cluster rule names no resource").isNull();
        assertThat(UserAclRules.bindings(user("alice", rules))).containsExactlyInAnyOrderElementsOf(bindings);
    }

    @Test
    void onlyWhatAKafkaUserCanHoldIsAccepted() {
        assertThat(UserAclRules.refusal(binding(AclResourceType.TOPIC, "t", AclPatternType.LITERAL, AclOperation.ALL,
                AclPermission.ALLOW))).isEmpty();
        assertThat(UserAclRules.refusal(new AclBinding(new KafkaPrincipal("Group", "ops"), "*", AclResourceType.TOPIC,
                "t", AclPatternType.LITERAL, AclOperation.READ, AclPermission.ALLOW))).get().asString()
                .contains("User principals only");
        assertThat(UserAclRules.refusal(new AclBinding(KafkaPrincipal.user("CN=alice,O=acme"), "*",
                AclResourceType.TOPIC, "t", AclPatternType.LITERAL, AclOperation.READ, AclPermission.ALLOW)))
                .get().asString().contains("cannot name one");
        assertThat(UserAclRules.refusal(binding(AclResourceType.USER, "bob", AclPatternType.LITERAL,
                AclOperation.CREATE_TOKENS, AclPermission.ALLOW))).get().asString().contains("not USER");
        assertThat(UserAclRules.refusal(binding(AclResourceType.DELEGATION_TOKEN, "t", AclPatternType.LITERAL,
                AclOperation.DESCRIBE, AclPermission.ALLOW))).isPresent();
    }

    @Test
    void aRuleWithoutOperationsIsNamed() {
        AclRule empty = UserAclRules.rules(List.of(binding(AclResourceType.TOPIC, "t", AclPatternType.LITERAL,
                AclOperation.READ, AclPermission.ALLOW))).get(0);
        empty.setOperations(List.of());

        assertThatThrownBy(() -> UserAclRules.bindings(user("alice", List.of(empty))))
                .hasMessage("spec.authorization.acls[0].operations must name at least one operation");
    }

    private static AclBinding binding(AclResourceType type, String name, AclPatternType pattern, AclOperation operation,
                                      AclPermission permission) {
        return new AclBinding(ALICE, "*", type, name, pattern, operation, permission);
    }

    static KafkaUser user(String name, List<AclRule> rules) {
        UserAuthorization authorization = new UserAuthorization();
        authorization.setType(AuthorizationType.SIMPLE);
        authorization.setAcls(rules);
        KafkaUserSpec spec = new KafkaUserSpec();
        spec.setAuthorization(authorization);
        KafkaUser user = new KafkaUser();
        user.setMetadata(new ObjectMetaBuilder().withName(name).build());
        user.setSpec(spec);
        return user;
    }
}
