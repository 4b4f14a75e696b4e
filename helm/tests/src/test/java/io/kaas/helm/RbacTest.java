package io.kaas.helm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.api.model.rbac.Subject;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Least privilege: each ServiceAccount's Role grants exactly the book's verbs on exactly the book's resources
 * (Kubernetes integration: broker RBAC; the operator's reconcilers and Lease), and each pod runs as the account its
 * Role is bound to. Rules are compared as "group/resource" → verbs, so a verb or resource too many fails.
 */
class RbacTest {
    private static final Set<String> READ = Set.of("get", "list", "watch");
    /** What the KafkaCluster reconciler does with the resources it owns: no watch, it re-reads every five minutes. */
    private static final Set<String> OWNED = Set.of("get", "list", "create", "patch", "delete");

    @Test
    void theBrokerMayElectAControllerReadTheRegistryAndServeTheTopicAndUserAdminApis() {
        Chart.Manifests manifests = Chart.withDefaults().set("broker.readinessGate.enabled", false).render();

        assertThat(grants(manifests.get(Role.class, "kaas-broker"))).isEqualTo(Map.of(
                "coordination.k8s.io/leases", Set.of("get", "create", "update"),
                "discovery.k8s.io/endpointslices", READ,
                "kaas.rs/kafkatopics", Set.of("get", "list", "watch", "create", "update", "patch", "delete"),
                "kaas.rs/kafkatopics/status", Set.of("get", "update", "patch"),
                "kaas.rs/kafkausers", Set.of("get", "list", "watch", "create", "update", "patch")));
    }

    @Test
    void theReadinessGateOnByDefaultAddsOnlyThePodStatusUpdateItNeeds() {
        Role role = Chart.withDefaults().render().get(Role.class, "kaas-broker");

        assertThat(grants(role)).containsEntry("/pods/status", Set.of("get", "update")).hasSize(6);
    }

    @Test
    void theOperatorMayReadItsResourcesWriteTheirStatusHoldItsLeaseKeepUserSecretsAndBuildTheExternalListener() {
        Chart.Manifests manifests = Chart.withDefaults().set("operator.enabled", true).render();

        assertThat(grants(manifests.get(Role.class, "kaas-operator"))).isEqualTo(Map.ofEntries(
                Map.entry("kaas.rs/kafkatopics", READ),
                Map.entry("kaas.rs/kafkausers", READ),
                Map.entry("kaas.rs/kafkaclusters", READ),
                Map.entry("kaas.rs/kafkatopics/status", Set.of("get", "update", "patch")),
                Map.entry("kaas.rs/kafkausers/status", Set.of("get", "update", "patch")),
                Map.entry("kaas.rs/kafkaclusters/status", Set.of("get", "update", "patch")),
                Map.entry("/secrets", Set.of("get", "list", "watch", "create", "update")),
                Map.entry("/services", OWNED),
                Map.entry("cert-manager.io/certificates", OWNED),
                Map.entry("gateway.networking.k8s.io/tlsroutes", OWNED),
                Map.entry("coordination.k8s.io/leases", Set.of("get", "create", "update"))));
    }

    @Test
    void eachPodRunsAsTheServiceAccountItsRoleIsBoundTo() {
        Chart.Manifests manifests = Chart.withDefaults().set("operator.enabled", true).render();
        String broker = manifests.get(StatefulSet.class, "kaas").getSpec().getTemplate().getSpec().getServiceAccountName();
        String operator = manifests.get(Deployment.class, "kaas-operator").getSpec().getTemplate().getSpec()
                .getServiceAccountName();

        assertThat(broker).isEqualTo("kaas-broker");
        assertThat(operator).isEqualTo("kaas-operator");
        assertBound(manifests.get(RoleBinding.class, "kaas-broker"), "kaas-broker", broker);
        assertBound(manifests.get(RoleBinding.class, "kaas-operator"), "kaas-operator", operator);
        assertThat(manifests.all(ServiceAccount.class)).extracting(account -> account.getMetadata().getName())
                .containsExactlyInAnyOrder(broker, operator);
    }

    @Test
    void withoutTheOperatorNothingIsGrantedToIt() {
        Chart.Manifests manifests = Chart.withDefaults().render();

        assertThat(manifests.all(Role.class)).extracting(role -> role.getMetadata().getName())
                .containsExactly("kaas-broker");
        assertThat(manifests.all(RoleBinding.class)).extracting(binding -> binding.getMetadata().getName())
                .containsExactly("kaas-broker");
    }

    @Test
    void rbacAndServiceAccountsCanBeLeftToThePlatform() {
        Chart.Manifests manifests = Chart.withDefaults()
                .set("rbac.create", false)
                .set("broker.serviceAccount.create", false)
                .set("broker.serviceAccount.name", "platform-kaas")
                .render();

        assertThat(manifests.all(Role.class)).isEmpty();
        assertThat(manifests.all(RoleBinding.class)).isEmpty();
        assertThat(manifests.all(ServiceAccount.class)).isEmpty();
        assertThat(manifests.get(StatefulSet.class, "kaas").getSpec().getTemplate().getSpec().getServiceAccountName())
                .isEqualTo("platform-kaas");
    }

    /** The Role's rules as "group/resource" → verbs; a resource named by two rules fails. */
    private static Map<String, Set<String>> grants(Role role) {
        Map<String, Set<String>> grants = new TreeMap<>();
        for (PolicyRule rule : role.getRules()) {
            assertThat(rule.getResourceNames()).as("rules name no single object").isEmpty();
            for (String group : rule.getApiGroups()) {
                for (String resource : rule.getResources()) {
                    Set<String> previous = grants.put(group + "/" + resource, new TreeSet<>(rule.getVerbs()));
                    assertThat(previous).as("%s/%s is granted by one rule", group, resource).isNull();
                }
            }
        }
        return grants;
    }

    private static void assertBound(RoleBinding binding, String role, String serviceAccount) {
        assertThat(binding.getRoleRef().getKind()).isEqualTo("Role");
        assertThat(binding.getRoleRef().getName()).isEqualTo(role);
        assertThat(binding.getSubjects()).extracting(Subject::getKind, Subject::getName, Subject::getNamespace)
                .containsExactly(tuple("ServiceAccount", serviceAccount, Chart.NAMESPACE));
    }
}
