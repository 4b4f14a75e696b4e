package io.kaas.adapter.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.kaas.adapter.k8s.crd.KafkaTopic;
import io.kaas.adapter.k8s.crd.KafkaTopicSpec;
import org.junit.jupiter.api.Test;

class TopicResourceNamesTest {

    @Test
    void aTopicNamedAsKubernetesNamesThingsIsDeclaredUnderItsOwnName() {
        assertThat(TopicResourceNames.resourceName("orders")).isEqualTo("orders");
        assertThat(TopicResourceNames.resourceName("orders-2024")).isEqualTo("orders-2024");
        assertThat(TopicResourceNames.resourceName("a".repeat(63))).isEqualTo("a".repeat(63));
    }

    @Test
    void anyOtherTopicGetsAStableSyntheticNameOfItsHash() {
        for (String topic : new String[] {"Orders", "app-KSTREAM-AGGREGATE-STATE-STORE-0000000001-repartition",
            "audit.log", "audit_log", "-leading-dash", "a".repeat(64)}) {
            String name = TopicResourceNames.resourceName(topic);
            assertThat(name).as(topic).matches("kaas-topic-[0-9a-f]{16}")
                    .isEqualTo(TopicResourceNames.resourceName(topic));
            assertThat(TopicResourceNames.isKubernetesName(name)).isTrue();
        }
        assertThat(TopicResourceNames.resourceName("audit.log")).isNotEqualTo(TopicResourceNames.resourceName("audit_log"));
        // The first 64 bits of SHA-256("Orders").
        assertThat(TopicResourceNames.resourceName("Orders")).isEqualTo("kaas-topic-b7e8acdd522e6190");
    }

    @Test
    void aResourceDeclaresItsTopicNameOrElseItsOwnName() {
        KafkaTopic resource = new KafkaTopic();
        resource.setMetadata(new ObjectMetaBuilder().withName("kaas-topic-b7e8acdd522e6190").build());
        resource.setSpec(new KafkaTopicSpec());
        assertThat(TopicResourceNames.topicName(resource)).isEqualTo("kaas-topic-b7e8acdd522e6190");

        resource.getSpec().setTopicName("Orders");
        assertThat(TopicResourceNames.topicName(resource)).isEqualTo("Orders");
    }
}
