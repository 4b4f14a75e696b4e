package io.kaas.adapter.k8s;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.kaas.adapter.k8s.crd.Condition;
import io.kaas.adapter.k8s.crd.KafkaTopic;
import io.kaas.adapter.k8s.crd.KafkaTopicSpec;
import io.kaas.adapter.k8s.crd.KafkaTopicStatus;
import io.kaas.adapter.k8s.crd.TopicReadyReasons;
import io.kaas.application.port.out.TopicCatalog.Declaration;
import io.kaas.application.port.out.TopicCatalog.Declared;
import io.kaas.application.port.out.TopicCatalog.Result;
import io.kaas.application.port.out.TopicCatalog.State;
import io.kaas.application.port.out.TopicCatalog.View;
import io.kaas.application.port.out.TopicCatalog.Write;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.error.KafkaException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The KafkaTopic catalog on the development API server: the watched view (resources created, made ready, deleted, and
 * a relist that retracts what vanished while the server was gone) and the writes (create with the naming rule and
 * ArgoCD's annotations, a read-modify-write update that survives a 409, delete, and the API server's refusals).
 */
class KafkaTopicCatalogIT {
    private static final String NAMESPACE = "test";
    private static final String KAFKA_TOPICS = "/apis/kaas.rs/v1alpha1/namespaces/test/kafkatopics";
    /** Long enough for a restart's relist (1 s, then 2 s if the server was not back yet) on a busy machine. */
    private static final Duration PATIENCE = Duration.ofSeconds(30);

    private final CrudApiServer apiServer = new CrudApiServer();
    private final KubernetesClient kubernetes = apiServer.client();
    private final KubernetesClient brokerClient = apiServer.client(config -> config.withRequestRetryBackoffLimit(0));
    private final KafkaTopicCatalog catalog = new KafkaTopicCatalog(brokerClient, NAMESPACE,
            Optional.of(new ArgoCdAnnotations("kaas", ArgoCdAnnotations.DEFAULT_COMPARE_OPTIONS, "")));

    @AfterEach
    void stop() {
        catalog.close();
        brokerClient.close();
        kubernetes.close();
        apiServer.close();
    }

    @Test
    void aKafkaTopicCreatedByHandIsDeclaredThenReadyThenRetracted() {
        AtomicInteger changes = new AtomicInteger();
        catalog.onChange(changes::incrementAndGet);
        assertThat(catalog.view()).isEqualTo(View.UNSYNCED);
        catalog.start();
        await().atMost(PATIENCE).until(() -> catalog.view().synced());

        KafkaTopic created = kubernetes.resource(kafkaTopic("orders", 3)).create();
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(catalog.view().get("orders")).map(Declared::state)
                .hasValue(State.PENDING));
        UUID id = UUID.randomUUID();
        markReady(created, id);
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(catalog.view().get("orders")).hasValue(new Declared(
                "orders", "orders", new Declaration(3, Map.of()), Optional.of(id), State.READY, Optional.empty(),
                "on the volume")));

        resource("orders").delete();
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(catalog.view().topics()).isEmpty());
        assertThat(changes).hasValueGreaterThanOrEqualTo(4);
    }

    @Test
    void aRelistAfterTheApiServerCameBackRetractsWhatVanishedMeanwhile() {
        kubernetes.resource(kafkaTopic("orders", 1)).create();
        catalog.start();
        await().atMost(PATIENCE).until(() -> catalog.view().get("orders").isPresent());

        apiServer.restart(); // back empty: the watch missed the deletion of "orders" and sees no event for it
        kubernetes.resource(kafkaTopic("payments", 1)).createOr(NonDeletingOperation::update);

        await().atMost(PATIENCE).untilAsserted(() -> assertThat(catalog.view().topics()).containsOnlyKeys("payments"));
    }

    @Test
    void createDeclaresTheTopicUnderItsResourceNameWithArgoCdsAnnotations() {
        assertThat(catalog.create("orders", new Declaration(3, Map.of("retention.ms", "60000"))))
                .isEqualTo(Write.done("orders"));
        KafkaTopic orders = resource("orders").get();
        assertThat(orders.getSpec().getPartitions()).isEqualTo(3);
        assertThat(orders.getSpec().getTopicName()).isNull();
        assertThat(orders.getSpec().getConfig().getRetentionMs()).isEqualTo(60_000L);
        assertThat(orders.getMetadata().getAnnotations()).containsExactly(
                Map.entry(ArgoCdAnnotations.TRACKING_ID, "kaas:kaas.rs/KafkaTopic:test/orders"),
                Map.entry(ArgoCdAnnotations.COMPARE_OPTIONS, "IgnoreExtraneous"));

        assertThat(catalog.create("orders", new Declaration(1, Map.of())).result()).isEqualTo(Result.ALREADY_EXISTS);

        String streams = "app-KSTREAM-AGGREGATE-0000000001-repartition";
        String name = catalog.create(streams, new Declaration(1, Map.of())).resourceName();
        assertThat(name).startsWith("kaas-topic-");
        assertThat(resource(name).get().getSpec().getTopicName()).isEqualTo(streams);
    }

    @Test
    void updateIsAReadModifyWriteThatReadsAgainAfterAConflict() {
        catalog.create("orders", new Declaration(2, Map.of("retention.ms", "60000")));
        apiServer.server().expect().put().withPath(KAFKA_TOPICS + "/orders")
                .andReturn(409, status(409, "Conflict")).once(); // someone wrote in between, once
        AtomicInteger applied = new AtomicInteger();

        assertThat(catalog.update("orders", stored -> {
            applied.incrementAndGet();
            return stored.withPartitions(stored.partitions() + 2);
        }).result()).isEqualTo(Result.DONE);

        assertThat(applied).as("applied to a fresh read after the 409").hasValue(2);
        assertThat(resource("orders").get().getSpec().getPartitions()).isEqualTo(4);
        assertThat(resource("orders").get().getSpec().getConfig().getRetentionMs()).isEqualTo(60_000L);
        assertThat(catalog.update("missing", stored -> stored).result()).isEqualTo(Result.NOT_FOUND);
        assertThatThrownBy(() -> catalog.update("orders", stored -> {
            throw new KafkaException(KafkaError.INVALID_PARTITIONS, "not an increase");
        })).isInstanceOf(KafkaException.class);
        assertThat(resource("orders").get().getSpec().getPartitions()).isEqualTo(4);
    }

    @Test
    void deleteRemovesTheResourceOnce() {
        catalog.create("orders", new Declaration(1, Map.of()));

        assertThat(catalog.delete("orders").result()).isEqualTo(Result.DONE);
        assertThat(resource("orders").get()).isNull();
        assertThat(catalog.delete("orders").result()).isEqualTo(Result.NOT_FOUND);
    }

    @Test
    void theApiServersRefusalsAndItsAbsenceAreResults() throws IOException {
        apiServer.server().expect().post().withPath(KAFKA_TOPICS).andReturn(403, status(403, "Forbidden")).once();
        apiServer.server().expect().post().withPath(KAFKA_TOPICS).andReturn(503, status(503, "Unavailable")).once();
        apiServer.server().expect().post().withPath(KAFKA_TOPICS).andReturn(422, status(422, "Invalid")).once();

        assertThat(catalog.create("orders", new Declaration(1, Map.of())).result()).isEqualTo(Result.FORBIDDEN);
        assertThat(catalog.create("orders", new Declaration(1, Map.of())).result()).isEqualTo(Result.UNAVAILABLE);
        assertThat(catalog.create("orders", new Declaration(1, Map.of())).result()).isEqualTo(Result.FAILED);

        int closedPort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }
        try (KubernetesClient unreachable = CrudApiServer.clientOf("http://127.0.0.1:" + closedPort,
                config -> config.withRequestRetryBackoffLimit(0));
             KafkaTopicCatalog nowhere = new KafkaTopicCatalog(unreachable, NAMESPACE, Optional.empty())) {
            assertThat(nowhere.create("orders", new Declaration(1, Map.of())).result()).isEqualTo(Result.UNAVAILABLE);
            assertThat(nowhere.delete("orders").result()).isEqualTo(Result.UNAVAILABLE);
        }
    }

    private Resource<KafkaTopic> resource(String name) {
        return kubernetes.resources(KafkaTopic.class).inNamespace(NAMESPACE).withName(name);
    }

    /** What the operator reports once it has materialised the resource. */
    private void markReady(KafkaTopic resource, UUID id) {
        Condition ready = new Condition();
        ready.setType("Ready");
        ready.setStatus("True");
        ready.setReason(TopicReadyReasons.MATERIALIZED);
        ready.setMessage("on the volume");
        ready.setObservedGeneration(resource.getMetadata().getGeneration());
        KafkaTopicStatus status = new KafkaTopicStatus();
        status.setTopicId(id.toString());
        status.setConditions(List.of(ready));
        resource.setStatus(status);
        kubernetes.resource(resource).updateStatus();
    }

    private static KafkaTopic kafkaTopic(String name, int partitions) {
        KafkaTopic resource = new KafkaTopic();
        resource.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(NAMESPACE).build());
        KafkaTopicSpec spec = new KafkaTopicSpec();
        spec.setPartitions(partitions);
        resource.setSpec(spec);
        return resource;
    }

    private static io.fabric8.kubernetes.api.model.Status status(int code, String reason) {
        return new StatusBuilder().withCode(code).withReason(reason).withStatus("Failure").build();
    }
}
