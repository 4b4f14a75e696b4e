package io.kaas.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.bootstrap.testing.EmbeddedKaas;
import io.kaas.bootstrap.testing.KaasBrokerExtension;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.CreateTopicsResult;
import org.apache.kafka.clients.admin.DescribeClusterResult;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicCollection;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicIdException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Topic administration and cluster description through the real AdminClient. */
class AdminTopicsIT {
    @RegisterExtension
    static final KaasBrokerExtension KAAS = KaasBrokerExtension.create();

    @Test
    void createdTopicsAreDescribedWithTheirPartitionsLeaderAndId() throws Exception {
        Admin admin = KAAS.kaas().admin();
        Map<String, Integer> wanted = Map.of(
                EmbeddedKaas.uniqueTopicName("one"), 1,
                EmbeddedKaas.uniqueTopicName("three"), 3,
                EmbeddedKaas.uniqueTopicName("twelve"), 12);

        CreateTopicsResult created = admin.createTopics(wanted.entrySet().stream()
                .map(e -> new NewTopic(e.getKey(), e.getValue(), (short) 1)).toList());
        created.all().get();
        for (var e : wanted.entrySet()) {
            assertThat(created.numPartitions(e.getKey()).get()).isEqualTo(e.getValue());
            assertThat(created.replicationFactor(e.getKey()).get()).isEqualTo(1);
            assertThat(created.topicId(e.getKey()).get()).isNotEqualTo(Uuid.ZERO_UUID);
        }

        Map<String, TopicDescription> described = admin.describeTopics(wanted.keySet()).allTopicNames().get();
        assertThat(described).containsOnlyKeys(wanted.keySet());
        for (var e : wanted.entrySet()) {
            TopicDescription d = described.get(e.getKey());
            assertThat(d.name()).isEqualTo(e.getKey());
            assertThat(d.isInternal()).isFalse();
            assertThat(d.topicId()).isNotEqualTo(Uuid.ZERO_UUID).isEqualTo(created.topicId(e.getKey()).get());
            assertThat(d.partitions()).extracting(TopicPartitionInfo::partition)
                    .containsExactlyElementsOf(range(e.getValue()));
            for (TopicPartitionInfo p : d.partitions()) {
                assertThat(p.leader().id()).isZero();
                assertThat(p.leader().port()).isEqualTo(KAAS.port());
                assertThat(p.replicas()).extracting(Node::id).containsExactly(0);
                assertThat(p.isr()).extracting(Node::id).containsExactly(0);
            }
        }

        // The same topics described by id.
        List<Uuid> ids = described.values().stream().map(TopicDescription::topicId).toList();
        Map<Uuid, TopicDescription> byId = admin.describeTopics(TopicCollection.ofTopicIds(ids)).allTopicIds().get();
        assertThat(byId).containsOnlyKeys(ids);
        byId.forEach((id, d) -> assertThat(d.partitions()).hasSize(wanted.get(d.name())));

        assertThat(admin.listTopics().names().get()).containsAll(wanted.keySet());
    }

    @Test
    void describeClusterShowsTheOneBrokerAsController() throws Exception {
        DescribeClusterResult cluster = KAAS.kaas().admin().describeCluster();

        String clusterId = cluster.clusterId().get();
        Node controller = cluster.controller().get();
        Collection<Node> nodes = cluster.nodes().get();

        assertThat(clusterId).isNotBlank();
        assertThat(Uuid.fromString(clusterId)).isNotEqualTo(Uuid.ZERO_UUID); // a base64 UUID, as Apache mints
        assertThat(controller.id()).isZero();
        assertThat(nodes).singleElement().satisfies(node -> {
            assertThat(node.id()).isZero();
            assertThat(node.host()).isEqualTo("127.0.0.1");
            assertThat(node.port()).isEqualTo(KAAS.port());
        });
        assertThat(controller.port()).isEqualTo(KAAS.port());
    }

    @Test
    void creatingAnExistingTopicFailsWithTopicExists() throws Exception {
        Admin admin = KAAS.kaas().admin();
        String name = EmbeddedKaas.uniqueTopicName("exists");
        admin.createTopics(List.of(new NewTopic(name, 2, (short) 1))).all().get();

        assertThatThrownBy(() -> admin.createTopics(List.of(new NewTopic(name, 5, (short) 1))).all().get())
                .isInstanceOf(ExecutionException.class)
                .cause().isInstanceOf(TopicExistsException.class);
        assertThat(admin.describeTopics(List.of(name)).allTopicNames().get().get(name).partitions())
                .as("the first definition stands").hasSize(2);
    }

    @Test
    void invalidTopicNamesAreRefused() throws Exception {
        Admin admin = KAAS.kaas().admin();
        for (String bad : List.of("bad/name", "has space", "..", "x".repeat(250))) {
            assertThatThrownBy(() -> admin.createTopics(List.of(new NewTopic(bad, 1, (short) 1))).all().get())
                    .as(bad)
                    .isInstanceOf(ExecutionException.class)
                    .cause().isInstanceOf(InvalidTopicException.class);
        }
        assertThat(admin.listTopics().names().get()).noneMatch(n -> n.contains("/") || n.contains(" "));
    }

    @Test
    void topicsAreDeletedByNameAndById() throws Exception {
        Admin admin = KAAS.kaas().admin();
        String byName = EmbeddedKaas.uniqueTopicName("delete-by-name");
        String byId = EmbeddedKaas.uniqueTopicName("delete-by-id");
        String kept = EmbeddedKaas.uniqueTopicName("kept");
        CreateTopicsResult created = admin.createTopics(List.of(new NewTopic(byName, 3, (short) 1),
                new NewTopic(byId, 2, (short) 1), new NewTopic(kept, 1, (short) 1)));
        created.all().get();
        Uuid id = created.topicId(byId).get();
        assertThat(admin.listTopics().names().get()).contains(byName, byId, kept);

        admin.deleteTopics(TopicCollection.ofTopicNames(List.of(byName))).all().get();
        admin.deleteTopics(TopicCollection.ofTopicIds(List.of(id))).all().get();

        assertThat(admin.listTopics().names().get()).contains(kept).doesNotContain(byName, byId);
        assertThatThrownBy(() -> admin.describeTopics(List.of(byName)).allTopicNames().get())
                .cause().isInstanceOf(UnknownTopicOrPartitionException.class);
        assertThatThrownBy(() -> admin.deleteTopics(TopicCollection.ofTopicIds(List.of(id))).all().get())
                .cause().isInstanceOf(UnknownTopicIdException.class);
        assertThatThrownBy(() -> admin.deleteTopics(TopicCollection.ofTopicNames(List.of(byName))).all().get())
                .cause().isInstanceOf(UnknownTopicOrPartitionException.class);

        // The name is free again, under a new id.
        CreateTopicsResult again = admin.createTopics(List.of(new NewTopic(byId, 1, (short) 1)));
        assertThat(again.topicId(byId).get()).isNotEqualTo(id).isNotEqualTo(Uuid.ZERO_UUID);
    }

    private static List<Integer> range(int n) {
        return java.util.stream.IntStream.range(0, n).boxed().toList();
    }
}
