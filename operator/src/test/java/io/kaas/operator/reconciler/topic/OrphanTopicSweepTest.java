package io.kaas.operator.reconciler.topic;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.adapter.fs.DataLayout;
import io.kaas.adapter.fs.JacksonCodec;
import io.kaas.adapter.fs.JsonFiles;
import io.kaas.adapter.fs.JsonTopicStore;
import io.kaas.adapter.fs.NioFilesystem;
import io.kaas.domain.topic.Topic;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One sweep pass over a temp directory, with the KafkaTopic listing played by a supplier. */
class OrphanTopicSweepTest {
    @TempDir
    Path data;

    private final JsonFiles files = new JsonFiles(new NioFilesystem(), new JacksonCodec());

    @Test
    void removesStampedAndUnstampedTopicDirectoriesNoKafkaTopicDeclares() throws IOException {
        save("orders");
        save("payments");
        Files.createDirectories(data.resolve("half-created/0"));

        int removed = sweep(() -> Set.of("payments")).sweep();

        assertThat(removed).isEqualTo(2);
        assertThat(data.resolve("orders")).doesNotExist();
        assertThat(data.resolve("half-created")).doesNotExist();
        assertThat(store().load("payments")).isPresent();
    }

    @Test
    void neverTouchesInternalStateOrWhatIsNotATopicDirectory() throws IOException {
        Files.createDirectories(data.resolve("__cluster/__consumer_offsets"));
        Files.createDirectories(data.resolve("__strimzi_store_topic"));
        Files.createDirectories(data.resolve("lost+found"));
        Files.writeString(data.resolve("cluster-notes"), "a file, not a topic");
        Files.writeString(data.resolve(".orders.tmp-1"), "a temp file");

        assertThat(sweep(Set::of).sweep()).isZero();
        assertThat(data.resolve("__cluster/__consumer_offsets")).isDirectory();
        assertThat(data.resolve("__strimzi_store_topic")).isDirectory();
        assertThat(data.resolve("lost+found")).isDirectory();
        assertThat(data.resolve("cluster-notes")).exists();
        assertThat(data.resolve(".orders.tmp-1")).exists();
    }

    @Test
    void keepsADirectoryReStampedBetweenTheListingAndTheRemoval() {
        save("orders");
        Topic recreated = new Topic("orders", UUID.randomUUID(), 1, Map.of());
        // The KafkaTopic listing comes after the directory listing; a reconcile of a KafkaTopic created in between
        // (not yet listed) reclaims the old directory and stamps its own id before the sweep gets the lock.
        OrphanTopicSweep sweep = sweep(() -> {
            store().delete(store().load("orders").orElseThrow());
            store().save(recreated);
            return Set.of();
        });

        assertThat(sweep.sweep()).isZero();
        assertThat(store().load("orders")).contains(recreated);
    }

    @Test
    void aPassInterruptedAfterTheStampLeavesADirectoryTheNextPassRemoves() throws IOException {
        save("orders");
        Files.delete(data.resolve("orders/.topic-id.json")); // where an interrupted removal stops

        assertThat(sweep(Set::of).sweep()).isEqualTo(1);
        assertThat(data.resolve("orders")).doesNotExist();
    }

    private OrphanTopicSweep sweep(Supplier<Set<String>> declared) {
        return new OrphanTopicSweep(new DataLayout(data), files, store(), new TopicLocks(), PoolRoots.none(),
                declared);
    }

    private JsonTopicStore store() {
        return JsonTopicStore.shared(new DataLayout(data), files);
    }

    private void save(String topic) {
        try {
            Files.createDirectories(data.resolve(topic).resolve("0"));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        store().save(new Topic(topic, UUID.randomUUID(), 1, Map.of()));
    }
}
