package io.kaas.bootstrap;

import static io.kaas.bootstrap.FetchSessionIT.assertOnePerPartition;
import static io.kaas.bootstrap.FetchSessionIT.observe;
import static io.kaas.bootstrap.FetchSessionIT.partitions;
import static io.kaas.bootstrap.FetchSessionIT.produce;
import static io.kaas.bootstrap.FetchSessionIT.snapshot;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kaas.application.fetch.FetchSessions;
import io.kaas.application.fetch.FetchSessions.Exchange;
import io.kaas.application.fetch.FetchSessions.Kind;
import io.kaas.bootstrap.testing.EmbeddedKaas;
import io.kaas.bootstrap.testing.KaasBrokerExtension;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A full fetch session cache ({@code KAAS_MAX_INCREMENTAL_FETCH_SESSION_CACHE_SLOTS=1}), as Apache's: a second
 * consumer finds no slot (the first session is young and in use, so not evictable) and is answered without a
 * session, fetch after fetch, consuming all the same; when the first consumer closes its session, the second
 * gets the slot. (Eviction of stale or old smaller sessions takes two minutes of broker time: FetchSessionCacheTest.)
 */
class FetchSessionCacheIT {
    private static final Map<String, Object> CONSUMER = Map.of(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 100);

    @RegisterExtension
    final KaasBrokerExtension kaas = KaasBrokerExtension.create()
            .withEnv("KAAS_MAX_INCREMENTAL_FETCH_SESSION_CACHE_SLOTS", "1");

    @Test
    void aConsumerFindingNoFreeSlotFetchesWithoutASessionUntilOneIsFreed() {
        EmbeddedKaas broker = kaas.kaas();
        String first = EmbeddedKaas.uniqueTopicName("slot-holder");
        String second = EmbeddedKaas.uniqueTopicName("slot-seeker");
        broker.createTopics(Map.of(first, 20, second, 7));
        List<TopicPartition> firstPartitions = partitions(first, 20);
        List<TopicPartition> secondPartitions = partitions(second, 7);
        produce(broker, firstPartitions, "a-");
        produce(broker, secondPartitions, "b-");
        FetchSessions sessions = broker.broker().fetchSessions();
        List<Exchange> exchanges = observe(sessions);

        KafkaConsumer<byte[], byte[]> holder = broker.consumer(CONSUMER);
        holder.assign(firstPartitions);
        assertOnePerPartition(EmbeddedKaas.consume(holder, 20, EmbeddedKaas.DEFAULT_TIMEOUT), firstPartitions, "a-");
        assertThat(sessions.size()).as("the holder took the only slot").isEqualTo(1);

        int seekingFrom = exchanges.size();
        KafkaConsumer<byte[], byte[]> seeker = broker.consumer(CONSUMER);
        seeker.assign(secondPartitions);
        assertOnePerPartition(EmbeddedKaas.consume(seeker, 7, EmbeddedKaas.DEFAULT_TIMEOUT), secondPartitions, "b-");
        // Keep both fetching for a while: the seeker keeps asking for a session and keeps getting none.
        await().atMost(EmbeddedKaas.DEFAULT_TIMEOUT).pollInSameThread().pollDelay(Duration.ZERO)
                .pollInterval(Duration.ofMillis(1)).until(() -> {
                    assertThat(seeker.poll(Duration.ofMillis(20))).isEmpty();
                    assertThat(holder.poll(Duration.ofMillis(20))).isEmpty();
                    return fullFetches(snapshot(exchanges).subList(seekingFrom, exchanges.size())).size() >= 3;
                });
        assertThat(fullFetches(snapshot(exchanges).subList(seekingFrom, exchanges.size())))
                .as("the seeker's full fetches, answered with every partition and no session")
                .allSatisfy(e -> {
                    assertThat(e.requestedPartitions()).isEqualTo(7);
                    assertThat(e.answeredPartitions()).isEqualTo(7);
                    assertThat(e.sessionId()).isZero();
                });
        assertThat(sessions.evictions()).as("a young session in use is not evicted").isZero();

        // The holder closes: its client closes the session (a fetch with the final epoch), freeing the slot. The
        // client sends that only with no fetch of its own in flight, so the holder first stops fetching (paused)
        // and takes the answer to its last fetch; the seeker, not polled meanwhile, sends none either.
        holder.pause(firstPartitions);
        await("no fetch in flight").atMost(EmbeddedKaas.DEFAULT_TIMEOUT).pollInSameThread().until(() -> {
            boolean idle = sessions.fetchesInProgress() == 0;
            assertThat(holder.poll(Duration.ofMillis(50))).isEmpty();
            return idle;
        });
        holder.close();
        await("the holder's session closed").atMost(EmbeddedKaas.DEFAULT_TIMEOUT).until(() -> sessions.size() == 0);
        int freedFrom = exchanges.size();
        await("the seeker in a session").atMost(EmbeddedKaas.DEFAULT_TIMEOUT).pollInSameThread()
                .pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(1)).until(() -> {
                    assertThat(seeker.poll(Duration.ofMillis(20))).isEmpty();
                    return snapshot(exchanges).subList(freedFrom, exchanges.size()).stream()
                            .anyMatch(e -> e.kind() == Kind.INCREMENTAL);
                });
        assertThat(sessions.size()).isEqualTo(1);
        produce(broker, secondPartitions, "c-");
        assertOnePerPartition(EmbeddedKaas.consume(seeker, 7, EmbeddedKaas.DEFAULT_TIMEOUT), secondPartitions, "c-");
        assertThat(sessions.evictions()).isZero();
    }

    private static List<Exchange> fullFetches(List<Exchange> exchanges) {
        return exchanges.stream().filter(e -> e.kind() == Kind.FULL).toList();
    }
}
