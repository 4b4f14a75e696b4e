package io.kaas.application.produce;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.application.cluster.WriteFence;
import io.kaas.application.fake.TestBroker;
import io.kaas.application.metrics.BrokerMetrics;
import io.kaas.application.port.in.ProduceUseCase.Command;
import io.kaas.application.port.in.ProduceUseCase.PartitionRecords;
import io.kaas.application.port.in.ProduceUseCase.PartitionResult;
import io.kaas.application.port.out.TransactionVerifier;
import io.kaas.domain.batch.TestBatches;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.topic.TopicPartition;
import io.kaas.domain.txn.TxnMarker;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.junit.jupiter.api.Test;

/** The produce path's transaction checks, with a coordinator that answers when the test says. */
class ProduceVerificationTest {
    private static final TopicPartition P0 = new TopicPartition("t", 0);
    private static final long PID = 77L;

    private final TestBroker broker = new TestBroker();
    private final SlowVerifier verifier = new SlowVerifier();
    private final ProduceService produce = new ProduceService(broker.topics, broker.clock, broker.scheduler, verifier,
            WriteFence.OPEN, BrokerMetrics.unobserved());

    ProduceVerificationTest() {
        broker.create("t", 1);
    }

    private static ByteBuffer txnBatch(int seq) {
        return TestBatches.batch().transactional().producer(PID, (short) 0, seq).records(1).build();
    }

    private CompletableFuture<List<PartitionResult>> send(String transactionalId, ByteBuffer batch) {
        return produce.produce(new Command(transactionalId, (short) 1, 1_000, List.of(new PartitionRecords(P0, batch))))
                .toCompletableFuture();
    }

    @Test
    void aBatchThatWouldStartATransactionWaitsForTheCoordinator() {
        CompletableFuture<List<PartitionResult>> sent = send("tx", txnBatch(0));
        assertThat(sent).isNotDone();
        assertThat(verifier.asked).containsExactly(P0);

        verifier.answer(KafkaError.NONE);

        assertThat(sent.join().get(0).error()).isEqualTo(KafkaError.NONE);
        CompletableFuture<List<PartitionResult>> next = send("tx", txnBatch(1));
        assertThat(next).as("in a transaction here: no second question").isCompleted();
        assertThat(verifier.asked).hasSize(1);
    }

    @Test
    void aTransactionThatEndedWhileTheCoordinatorWasAskedIsNotResurrected() {
        CompletableFuture<List<PartitionResult>> sent = send("tx", txnBatch(0));
        broker.topics.log(P0).orElseThrow().appendMarker(new TxnMarker(PID, (short) 0, 0, false), 0L);

        verifier.answer(KafkaError.NONE);

        assertThat(sent.join().get(0).error()).isEqualTo(KafkaError.INVALID_TXN_STATE);
        assertThat(broker.topics.log(P0).orElseThrow().offsets().lastStableOffset()).isEqualTo(1L);
    }

    @Test
    void coordinatorTroubleIsRetriableAndAFencedProducerGetsProducesOwnFencingCode() {
        CompletableFuture<List<PartitionResult>> busy = send("tx", txnBatch(0));
        verifier.answer(KafkaError.CONCURRENT_TRANSACTIONS);
        CompletableFuture<List<PartitionResult>> fenced = send("tx", txnBatch(0));
        verifier.answer(KafkaError.PRODUCER_FENCED);
        CompletableFuture<List<PartitionResult>> notAdded = send("tx", txnBatch(0));
        verifier.answer(KafkaError.INVALID_TXN_STATE);

        assertThat(busy.join().get(0).error()).isEqualTo(KafkaError.NOT_ENOUGH_REPLICAS);
        assertThat(fenced.join().get(0).error()).isEqualTo(KafkaError.INVALID_PRODUCER_EPOCH);
        assertThat(notAdded.join().get(0).message()).isEqualTo("Partition was not added to the transaction");
        assertThat(broker.topics.log(P0).orElseThrow().offsets().highWatermark()).isZero();
    }

    @Test
    void transactionalBatchesWithoutATransactionalIdAreRefused() {
        assertThat(send(null, txnBatch(0)).join().get(0).error()).isEqualTo(KafkaError.TRANSACTIONAL_ID_AUTHORIZATION_FAILED);
        assertThat(send(null, TestBatches.idempotent(PID, (short) 0, 0, 1)).join().get(0).error()).isEqualTo(KafkaError.NONE);
        assertThat(verifier.asked).isEmpty();
    }

    /** Answers each question when the test calls {@link #answer}, in order. */
    private static final class SlowVerifier implements TransactionVerifier {
        final List<TopicPartition> asked = new ArrayList<>();
        private final ArrayDeque<CompletableFuture<Map<TopicPartition, KafkaError>>> pending =
                new ArrayDeque<>();

        @Override
        public CompletionStage<Map<TopicPartition, KafkaError>> verifyPartitions(String transactionalId, long producerId,
                                                                                 short producerEpoch,
                                                                                 Set<TopicPartition> partitions) {
            asked.addAll(partitions);
            CompletableFuture<Map<TopicPartition, KafkaError>> answer = new CompletableFuture<>();
            pending.add(answer);
            return answer;
        }

        @Override
        public CompletionStage<KafkaError> verifyGroup(String transactionalId, long producerId, short producerEpoch,
                                                       String groupId) {
            throw new UnsupportedOperationException();
        }

        void answer(KafkaError error) {
            pending.poll().complete(Map.of(P0, error));
        }
    }
}
