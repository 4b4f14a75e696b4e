package io.kaas.adapter.fs;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.application.port.out.MarkerQueue.QueuedMarkers;
import io.kaas.application.port.out.ProducerFenceLog.Fence;
import io.kaas.domain.topic.TopicPartition;
import io.kaas.domain.txn.Transaction;
import io.kaas.domain.txn.TxnState;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The transaction coordinator's files: slots, the fence logs and the marker queue. */
class JsonTransactionStoresTest {
    private static final JsonFiles JSON = new JsonFiles(new NioFilesystem(), new JacksonCodec());

    @TempDir
    Path data;

    private final Transaction ongoing = new Transaction("tx-1", 4_398_046_511_104L, 4_398_046_511_104L, (short) 3,
            (short) 2, 60_000, TxnState.ONGOING, List.of(new TopicPartition("out", 1), new TopicPartition("out", 0)),
            List.of("g"), 1_700_000_000_000L, 1_700_000_000_500L);

    @Test
    void aSlotFileReadsBackAsItWasWritten() throws IOException {
        JsonTransactionStateStore store = new JsonTransactionStateStore(new DataLayout(data), JSON);
        Transaction empty = Transaction.create("tx-2", 9L, 1_000, 5L);

        store.save(17, List.of(ongoing, empty));

        assertThat(store.load(17)).containsExactly(ongoing, empty);
        assertThat(store.load(18)).isEmpty();
        String json = Files.readString(data.resolve("__cluster/txn_state/slot-17.json"), StandardCharsets.UTF_8);
        assertThat(json).as("readable by an operator").contains("\"state\" : \"Ongoing\"", "\"transactionalId\" : \"tx-1\"");
    }

    @Test
    void aSlotFileIsReplacedWhole() {
        JsonTransactionStateStore store = new JsonTransactionStateStore(new DataLayout(data), JSON);
        store.save(3, List.of(ongoing));

        store.save(3, List.of());

        assertThat(store.load(3)).isEmpty();
    }

    @Test
    void theFenceLogKeepsTheNewestEpochPerProducerAndPrunesOldOnes() {
        DataLayout layout = new DataLayout(data);
        JsonProducerFenceLog mine = new JsonProducerFenceLog(layout, JSON, 1);
        mine.append(new Fence(10L, (short) 2, 100L));
        mine.append(new Fence(10L, (short) 5, 200L));
        mine.append(new Fence(10L, (short) 4, 300L)); // late and older: ignored
        mine.append(new Fence(11L, (short) 1, 50L));

        assertThat(new JsonProducerFenceLog(layout, JSON, 2).read(1)).as("what a peer reads")
                .containsExactly(new Fence(10L, (short) 5, 200L), new Fence(11L, (short) 1, 50L));
        mine.prune(100L);
        assertThat(mine.read(1)).containsExactly(new Fence(10L, (short) 5, 200L));
        assertThat(mine.read(3)).isEmpty();
        assertThat(data.resolve("__cluster/producer_fences/from-1.json")).exists();
    }

    @Test
    void theMarkerQueueIsOneFilePerEntryPerTargetNamedByItsContent() {
        JsonMarkerQueue queue = new JsonMarkerQueue(new DataLayout(data), JSON);
        QueuedMarkers first = new QueuedMarkers(7L, (short) 1, 0, true,
                List.of(new TopicPartition("out", 2), new TopicPartition("out", 0)), List.of());
        QueuedMarkers retried = new QueuedMarkers(7L, (short) 1, 0, true,
                List.of(new TopicPartition("out", 0), new TopicPartition("out", 2)), List.of());
        QueuedMarkers rest = new QueuedMarkers(7L, (short) 1, 0, true, List.of(new TopicPartition("out", 2)), List.of());
        QueuedMarkers other = new QueuedMarkers(8L, (short) 0, 0, false, List.of(new TopicPartition("x", 1)), List.of());

        queue.enqueue(2, first);
        queue.enqueue(2, retried);
        queue.enqueue(2, other);
        queue.enqueue(3, other);

        assertThat(retried.key()).as("the same content, in any order, is the same entry").isEqualTo(first.key())
                .startsWith("7-1-").isNotEqualTo(rest.key());
        assertThat(data.resolve("__cluster/marker_queue/to-2/" + first.key() + ".json")).exists();
        assertThat(queue.pending(2)).containsExactlyInAnyOrder(retried, other);
        assertThat(queue.isPending(2, first)).isTrue();
        assertThat(queue.isPending(2, rest)).isFalse();
        queue.remove(2, first);
        queue.remove(2, rest);
        assertThat(queue.isPending(2, first)).isFalse();
        assertThat(queue.pending(2)).containsExactly(other);
        assertThat(queue.pending(3)).containsExactly(other);
        assertThat(queue.pending(4)).isEmpty();
    }
}
