package io.kaas.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.bootstrap.testing.EmbeddedKaas;
import io.kaas.bootstrap.testing.KaasBrokerExtension;
import io.kaas.bootstrap.testing.WordCountApp;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kafka Streams 3.7 with {@code processing.guarantee=exactly_once_v2} ({@link WordCountApp}): each
 * word's counts are exactly 1..n, also across an application restart that rebuilds its state from
 * the changelog.
 */
class StreamsExactlyOnceIT {
    private static final Duration DEADLINE = Duration.ofSeconds(90);

    @RegisterExtension
    static final KaasBrokerExtension KAAS = KaasBrokerExtension.create()
            .withEnv("KAAS_GROUP_INITIAL_REBALANCE_DELAY_MS", "0");

    @TempDir
    Path stateDirs;

    @Test
    void wordCountsAreExactAcrossARestart() throws Exception {
        EmbeddedKaas kaas = KAAS.kaas();
        String input = EmbeddedKaas.uniqueTopicName("wc-in");
        String output = EmbeddedKaas.uniqueTopicName("wc-out");
        String appId = EmbeddedKaas.uniqueTopicName("wordcount");
        kaas.createTopics(Map.of(input, 2, output, 2));
        Map<String, Integer> expected = new TreeMap<>();
        KafkaProducer<byte[], byte[]> sentences = kaas.producer();

        WordCountApp.send(sentences, input, 0, 60, expected);
        try (KafkaStreams first = WordCountApp.start(kaas.bootstrapServers(), appId, input, output,
                stateDirs.resolve("first"))) {
            WordCountApp.awaitCounts(kaas.bootstrapServers(), output, 2, expected, DEADLINE);
            first.close(Duration.ofSeconds(30));
        }
        try (Admin admin = kaas.admin()) {
            assertThat(admin.listTopics().names().get(10, TimeUnit.SECONDS))
                    .as("Streams created its internal topics through CreateTopics")
                    .contains(appId + "-counts-changelog", appId + "-counts-repartition");
        }

        WordCountApp.send(sentences, input, 60, 120, expected);
        // A fresh state directory: the restarted application restores its counts from the changelog.
        try (KafkaStreams second = WordCountApp.start(kaas.bootstrapServers(), appId, input, output,
                stateDirs.resolve("second"))) {
            WordCountApp.awaitCounts(kaas.bootstrapServers(), output, 2, expected, DEADLINE);
            second.close(Duration.ofSeconds(30));
        }
    }
}
