package io.kaas.dev.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectAccessReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectAccessReviewBuilder;
import io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectRulesReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectRulesReviewBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * fabric8 clients against the development API server in this JVM: what kaas's Kubernetes adapter and the operator
 * rely on keeps working next to what was added for kubectl (watches over WebSocket, informers, access reviews,
 * merge patches, canned answers).
 */
class Fabric8ClientIT {
    private static final Duration WAIT = Duration.ofSeconds(30);

    private DevApiServer server;
    private KubernetesClient client;

    @BeforeEach
    void start() {
        server = DevApiServer.start(0);
        client = new KubernetesClientBuilder().withConfig(new ConfigBuilder(Config.empty()).withMasterUrl(server.url())
                .withNamespace("dev").withHttp2Disable(true).build()).build();
    }

    @AfterEach
    void stop() {
        client.close();
        server.shutdown();
    }

    @Test
    void aWebSocketWatchSeesAddedModifiedAndDeleted() {
        List<String> events = new CopyOnWriteArrayList<>();
        try (Watch ignored = client.leases().inNamespace("dev").watch(new Watcher<Lease>() {
            @Override
            public void eventReceived(Action action, Lease lease) {
                events.add(action + " " + lease.getMetadata().getName() + " " + lease.getSpec().getHolderIdentity());
            }

            @Override
            public void onClose(WatcherException cause) {
                events.add("closed " + cause);
            }
        })) {
            client.resource(lease("kaas-0")).create();
            await().atMost(WAIT).until(() -> events.contains("ADDED kaas-controller kaas-0"));

            client.leases().inNamespace("dev").withName("kaas-controller")
                    .edit(l -> new LeaseBuilder(l).editSpec().withHolderIdentity("kaas-1").endSpec().build());
            await().atMost(WAIT).until(() -> events.contains("MODIFIED kaas-controller kaas-1"));

            client.leases().inNamespace("dev").withName("kaas-controller").delete();
            await().atMost(WAIT).until(() -> events.contains("DELETED kaas-controller kaas-1"));
        }
        assertThat(events).containsExactly("ADDED kaas-controller kaas-0", "MODIFIED kaas-controller kaas-1",
                "DELETED kaas-controller kaas-1");
    }

    @Test
    void anInformerSeesObjectsCreatedBeforeAndAfterItStarted() {
        client.resource(lease("kaas-0")).create();
        List<String> seen = new CopyOnWriteArrayList<>();
        try (SharedIndexInformer<Lease> informer = client.leases().inNamespace("dev").inform(new ResourceEventHandler<>() {
            @Override
            public void onAdd(Lease lease) {
                seen.add("add " + lease.getMetadata().getName());
            }

            @Override
            public void onUpdate(Lease before, Lease after) {
                seen.add("update " + after.getMetadata().getName() + " " + after.getSpec().getHolderIdentity());
            }

            @Override
            public void onDelete(Lease lease, boolean unknownFinalState) {
                seen.add("delete " + lease.getMetadata().getName());
            }
        })) {
            await().atMost(WAIT).until(() -> seen.contains("add kaas-controller"));
            client.resource(new LeaseBuilder(lease("kaas-0")).editMetadata().withName("other").endMetadata().build())
                    .create();
            client.leases().inNamespace("dev").withName("kaas-controller").patch(PatchContext.of(PatchType.JSON_MERGE),
                    "{\"spec\":{\"holderIdentity\":\"kaas-2\"}}");
            await().atMost(WAIT).until(() -> seen.contains("add other") && seen.contains("update kaas-controller kaas-2"));
            assertThat(informer.getStore().list()).extracting(l -> l.getMetadata().getName())
                    .containsExactlyInAnyOrder("kaas-controller", "other");
        }
    }

    @Test
    void aClientLeftToItsDefaultsUpgradesToHttp2AndReadsAndWrites() {
        try (KubernetesClient http2 = new KubernetesClientBuilder().withConfig(new ConfigBuilder(Config.empty())
                .withMasterUrl(server.url()).withNamespace("dev").build()).build()) {
            http2.resource(lease("kaas-0")).create();
            http2.leases().inNamespace("dev").withName("kaas-controller")
                    .edit(l -> new LeaseBuilder(l).editSpec().withHolderIdentity("kaas-1").endSpec().build());
            http2.leases().inNamespace("dev").withName("kaas-controller").patch(PatchContext.of(PatchType.JSON_MERGE),
                    "{\"spec\":{\"leaseTransitions\":2}}");

            Lease read = http2.leases().inNamespace("dev").withName("kaas-controller").get();
            assertThat(read.getSpec().getHolderIdentity()).isEqualTo("kaas-1");
            assertThat(read.getSpec().getLeaseTransitions()).isEqualTo(2);
            assertThat(http2.leases().inNamespace("dev").list().getItems()).hasSize(1);
        }
    }

    @Test
    void accessReviewsAllowEverything() {
        SelfSubjectRulesReview rules = client.authorization().v1().selfSubjectRulesReview().create(
                new SelfSubjectRulesReviewBuilder().withNewSpec().withNamespace("dev").endSpec().build());
        assertThat(rules.getStatus().getIncomplete()).isFalse();
        assertThat(rules.getStatus().getResourceRules()).singleElement().satisfies(rule -> {
            assertThat(rule.getVerbs()).containsExactly("*");
            assertThat(rule.getApiGroups()).containsExactly("*");
            assertThat(rule.getResources()).containsExactly("*");
        });

        SelfSubjectAccessReview access = client.authorization().v1().selfSubjectAccessReview().create(
                new SelfSubjectAccessReviewBuilder().withNewSpec().withNewResourceAttributes().withVerb("delete")
                        .withResource("leases").withNamespace("dev").endResourceAttributes().endSpec().build());
        assertThat(access.getStatus().getAllowed()).isTrue();
    }

    @Test
    void aMergePatchRemovesNullFieldsAndReplacesLists() {
        GenericKubernetesResource created = client.resource(new GenericKubernetesResourceBuilder()
                .withApiVersion("v1").withKind("ConfigMap").withNewMetadata().withName("c").withLabels(Map.of("a", "1",
                        "b", "2")).endMetadata()
                .addToAdditionalProperties("data", Map.of("list", "x")).build()).create();
        assertThat(created.getMetadata().getLabels()).containsOnlyKeys("a", "b");

        client.configMaps().inNamespace("dev").withName("c").patch(PatchContext.of(PatchType.JSON_MERGE),
                "{\"metadata\":{\"labels\":{\"b\":null,\"c\":\"3\"},\"finalizers\":[\"one\"]}}");
        client.configMaps().inNamespace("dev").withName("c").patch(PatchContext.of(PatchType.JSON_MERGE),
                "{\"metadata\":{\"finalizers\":[\"two\"]}}");

        var patched = client.configMaps().inNamespace("dev").withName("c").get();
        assertThat(patched.getMetadata().getLabels()).containsExactlyInAnyOrderEntriesOf(Map.of("a", "1", "c", "3"));
        assertThat(patched.getMetadata().getFinalizers()).containsExactly("two");
    }

    @Test
    void cannedAnswersStillTakePrecedence() {
        server.expect().get().withPath("/apis/coordination.k8s.io/v1/namespaces/dev/leases/kaas-controller")
                .andReturn(403, "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"code\":403,"
                        + "\"reason\":\"Forbidden\",\"message\":\"canned\"}").once();
        client.resource(lease("kaas-0")).create();

        org.assertj.core.api.Assertions.assertThatThrownBy(
                () -> client.leases().inNamespace("dev").withName("kaas-controller").get())
                .hasMessageContaining("canned");
        assertThat(client.leases().inNamespace("dev").withName("kaas-controller").get().getSpec().getHolderIdentity())
                .isEqualTo("kaas-0");
    }

    private static Lease lease(String holder) {
        return new LeaseBuilder().withNewMetadata().withName("kaas-controller").withNamespace("dev").endMetadata()
                .withNewSpec().withHolderIdentity(holder).withLeaseTransitions(1).endSpec().build();
    }
}
