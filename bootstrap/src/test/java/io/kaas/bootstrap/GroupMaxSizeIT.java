package io.kaas.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kaas.bootstrap.testing.EmbeddedKaas;
import io.kaas.bootstrap.testing.KaasBrokerExtension;
import io.kaas.bootstrap.testing.PollingConsumer;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.errors.GroupMaxSizeReachedException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@code group.max.size}: a consumer beyond the limit fails with GroupMaxSizeReachedException; the group carries on. */
class GroupMaxSizeIT {
    @RegisterExtension
    static final KaasBrokerExtension KAAS = KaasBrokerExtension.create().withEnv(EmbeddedKaas.FAST_GROUPS)
            .withEnv(Map.of("KAAS_GROUP_MAX_SIZE", "2"));

    @Test
    void aThirdConsumerIsRefusedAndTheTwoKeepTheirPartitions(EmbeddedKaas kaas) {
        String topic = EmbeddedKaas.uniqueTopicName("max-size");
        String group = topic + "-group";
        kaas.createTopic(topic, 4);
        List<PollingConsumer> members = List.of(kaas.groupMember(group, topic), kaas.groupMember(group, topic));
        await().atMost(EmbeddedKaas.DEFAULT_TIMEOUT).until(() -> members.stream().allMatch(m -> m.assignment().size() == 2));
        int generation = members.get(0).generation();

        PollingConsumer third = kaas.groupMember(group, topic);
        await().atMost(EmbeddedKaas.DEFAULT_TIMEOUT).until(() -> third.failure() != null);

        assertThat(third.failure()).isInstanceOf(GroupMaxSizeReachedException.class);
        assertThat(members).allSatisfy(m -> {
            assertThat(m.failure()).isNull();
            assertThat(m.assignment()).hasSize(2);
            assertThat(m.generation()).as("no rebalance for the refused consumer").isEqualTo(generation);
        });
    }
}
