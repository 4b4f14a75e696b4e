package io.kaas.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kaas.bootstrap.testing.EmbeddedKaas;
import io.kaas.bootstrap.testing.KaasBrokerExtension;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ProducerState;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code producer.id.expiration.ms}: a partition forgets an idempotent producer that stopped
 * writing, keeps one that writes, leaves the forgotten one out of its snapshot, and takes the
 * forgotten producer's next batch as from a new producer — as Apache 3.7 does.
 */
class ProducerExpiryIT {
    private static final int EXPIRATION_MS = 2_000;
    private static final long RECORD_TIME = 1_234_567_890_123L;

    @RegisterExtension
    final KaasBrokerExtension kaas = KaasBrokerExtension.create()
            .withEnv(Map.of("KAAS_PRODUCER_ID_EXPIRATION_MS", Integer.toString(EXPIRATION_MS),
                    "KAAS_PRODUCER_ID_EXPIRATION_CHECK_INTERVAL_MS", "200"));

    @Test
    void anIdleProducerIsForgottenAndAnActiveOneKept(EmbeddedKaas broker) throws Exception {
        String topic = EmbeddedKaas.uniqueTopicName("producer-expiry");
        broker.createTopic(topic, 1);
        TopicPartition tp = new TopicPartition(topic, 0);
        KafkaProducer<byte[], byte[]> idle = broker.producer();
        KafkaProducer<byte[], byte[]> active = broker.producer();
        long idleLastSentNanos = 0;
        for (int i = 0; i < 10; i++) {
            idleLastSentNanos = System.nanoTime();
            idle.send(new ProducerRecord<>(topic, 0, null, utf8("idle " + i))).get();
        }
        active.send(new ProducerRecord<>(topic, 0, RECORD_TIME, null, utf8("active 0"))).get();
        Admin admin = broker.admin();
        List<ProducerState> before = producers(admin, tp);
        assertThat(before).hasSize(2);
        assertThat(before).extracting(ProducerState::lastTimestamp).as("the last batch's timestamp, as Apache reports it")
                .contains(RECORD_TIME);

        int[] activeSent = {1};
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(300)).until(() -> {
            active.send(new ProducerRecord<>(topic, 0, null, utf8("active " + activeSent[0]++))).get();
            return producers(admin, tp).size() == 1;
        });
        long activeId = producers(admin, tp).get(0).producerId();
        assertThat(before).extracting(ProducerState::producerId).contains(activeId);
        // A lower bound only, which holds however slow the machine: the broker stamped the idle producer's last
        // batch after this test took the time, and forgets it no sooner than the expiration after that.
        assertThat(Duration.ofNanos(System.nanoTime() - idleLastSentNanos)).as("the idle one lasted its expiration")
                .isGreaterThanOrEqualTo(Duration.ofMillis(EXPIRATION_MS));
        active.close();

        // What the snapshot kept, not what a slow restart lets expire on the way: no expiry in the restarted broker.
        broker.restart(Map.of("KAAS_PRODUCER_ID_EXPIRATION_MS", "3600000"));
        Admin restarted = broker.admin();
        assertThat(producers(restarted, tp)).extracting(ProducerState::producerId)
                .as("the snapshot written at close left the expired producer out").containsExactly(activeId);

        idle.send(new ProducerRecord<>(topic, 0, null, utf8("idle 10"))).get(30, TimeUnit.SECONDS);
        try (KafkaConsumer<byte[], byte[]> consumer = broker.consumer()) {
            List<ConsumerRecord<byte[], byte[]>> read = EmbeddedKaas.readAll(consumer, List.of(tp),
                    EmbeddedKaas.DEFAULT_TIMEOUT).get(tp);
            assertThat(read).extracting(r -> new String(r.value(), StandardCharsets.UTF_8))
                    .filteredOn(v -> v.startsWith("idle"))
                    .containsExactly("idle 0", "idle 1", "idle 2", "idle 3", "idle 4", "idle 5", "idle 6", "idle 7",
                            "idle 8", "idle 9", "idle 10");
            assertThat(read).hasSize(11 + activeSent[0]);
        }
        idle.close();
    }

    private static List<ProducerState> producers(Admin admin, TopicPartition tp) throws Exception {
        return admin.describeProducers(List.of(tp)).partitionResult(tp).get().activeProducers();
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
