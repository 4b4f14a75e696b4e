package io.kaas.operator.model;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.kaas.adapter.k8s.crd.KafkaTopic;
import io.kaas.adapter.k8s.crd.KafkaTopicConfig;
import io.kaas.adapter.k8s.crd.KafkaTopicSpec;
import io.kaas.adapter.k8s.crd.TopicStorage;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

class DesiredTopicTest {
    private static final List<PoolVolume> POOL = List.of(PoolVolume.DATA_VOLUME);

    @Test
    void theResourceNameIsTheTopicUnlessSpecTopicNameSaysOtherwise() {
        assertThat(valid("orders", spec -> { })).isEqualTo(new DesiredTopic("orders", 3, Map.of(), List.of("default"),
                List.of("default")));
        assertThat(valid("kaas-topic-0123456789abcdef", spec -> spec.setTopicName("Orders_v2")).name())
                .isEqualTo("Orders_v2");
    }

    @Test
    void theConfigBecomesValidatedOverrides() {
        DesiredTopic topic = valid("orders", spec -> {
            KafkaTopicConfig config = new KafkaTopicConfig();
            config.setRetentionMs(-1L);
            spec.setConfig(config);
        });

        assertThat(topic.configs()).isEqualTo(Map.of("retention.ms", "-1"));
    }

    @Test
    void whatABrokerWouldRejectIsRefusedWithAReason() {
        assertThat(refusal("orders", spec -> spec.setTopicName("a/b")).reason()).isEqualTo(Refusal.INVALID_TOPIC_NAME);
        assertThat(refusal("orders", spec -> spec.setTopicName("__cluster")).reason())
                .isEqualTo(Refusal.INVALID_TOPIC_NAME);
        assertThat(refusal("orders", spec -> spec.setPartitions(0)).reason()).isEqualTo(Refusal.INVALID_PARTITIONS);
        assertThat(refusal("orders", spec -> spec.setPartitions(null)).reason()).isEqualTo(Refusal.INVALID_PARTITIONS);
        Refusal badRetention = refusal("orders", spec -> {
            KafkaTopicConfig config = new KafkaTopicConfig();
            config.setRetentionMs(-5L);
            spec.setConfig(config);
        });
        assertThat(badRetention.reason()).isEqualTo(Refusal.INVALID_CONFIG);
        assertThat(badRetention.message()).contains("retention.ms");
        Refusal unknownVolume = refusal("orders", spec -> {
            TopicStorage storage = new TopicStorage();
            storage.setVolumes(List.of("premium"));
            spec.setStorage(storage);
        });
        assertThat(unknownVolume).isEqualTo(new Refusal(Refusal.INVALID_VOLUME_BINDING,
                "spec.storage.volumes names [premium], not in the volume pool [default]"));
    }

    private static DesiredTopic valid(String name, Consumer<KafkaTopicSpec> edit) {
        DesiredTopic.Check check = DesiredTopic.of(resource(name, edit), POOL);
        assertThat(check).isInstanceOf(DesiredTopic.Valid.class);
        return ((DesiredTopic.Valid) check).topic();
    }

    private static Refusal refusal(String name, Consumer<KafkaTopicSpec> edit) {
        DesiredTopic.Check check = DesiredTopic.of(resource(name, edit), POOL);
        assertThat(check).isInstanceOf(DesiredTopic.Invalid.class);
        return ((DesiredTopic.Invalid) check).refusal();
    }

    private static KafkaTopic resource(String name, Consumer<KafkaTopicSpec> edit) {
        KafkaTopic resource = new KafkaTopic();
        resource.setMetadata(new ObjectMetaBuilder().withName(name).build());
        KafkaTopicSpec spec = new KafkaTopicSpec();
        spec.setPartitions(3);
        edit.accept(spec);
        resource.setSpec(spec);
        return resource;
    }
}
