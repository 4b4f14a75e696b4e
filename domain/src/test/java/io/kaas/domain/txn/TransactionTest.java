package io.kaas.domain.txn;

import static io.kaas.domain.txn.TxnTestContext.ID;
import static io.kaas.domain.txn.TxnTestContext.P0;
import static io.kaas.domain.txn.TxnTestContext.P1;
import static io.kaas.domain.txn.TxnTestContext.PID;
import static io.kaas.domain.txn.TxnTestContext.TIMEOUT_MS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.domain.error.KafkaError;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** Every transition and error of a transactional id, with Apache 3.7's answers. */
class TransactionTest {

    @Nested
    class InitProducerId {

        @Test
        void theFirstCallAssignsEpochZero() {
            TxnTestContext ctx = TxnTestContext.initialized();

            assertThat(ctx.txn.state()).isEqualTo(TxnState.EMPTY);
            assertThat(ctx.txn.producerId()).isEqualTo(PID);
            assertThat(ctx.last.events()).singleElement().isInstanceOf(TxnEvent.ProducerIdAssigned.class);
        }

        @Test
        void aRejoinKeepsTheProducerIdAndBumpsTheEpoch() {
            TxnTestContext ctx = TxnTestContext.initialized();

            assertThat(ctx.init(null)).isEqualTo(InitResult.ok(PID, (short) 1));
            assertThat(ctx.init(null)).isEqualTo(InitResult.ok(PID, (short) 2));
            assertThat(ctx.txn.lastProducerEpoch()).isEqualTo((short) -1);
        }

        @Test
        void aRejoinAfterACompletedTransactionResetsToEmpty() {
            TxnTestContext ctx = TxnTestContext.ongoing();
            ctx.end(true);
            ctx.complete();

            ctx.init(null);

            assertThat(ctx.txn.state()).isEqualTo(TxnState.EMPTY);
            assertThat(ctx.txn.partitions()).isEmpty();
            assertThat(ctx.txn.startMs()).isEqualTo(-1L);
        }

        @Test
        void theCallersCurrentEpochIsBumpedAndRememberedForARetry() {
            TxnTestContext ctx = TxnTestContext.initialized();

            assertThat(ctx.init(new ProducerIdAndEpoch(PID, (short) 0))).isEqualTo(InitResult.ok(PID, (short) 1));
            assertThat(ctx.txn.lastProducerEpoch()).isZero();
            // the answer was lost; the producer asks again with the epoch it still has
            assertThat(ctx.init(new ProducerIdAndEpoch(PID, (short) 0))).isEqualTo(InitResult.ok(PID, (short) 1));
            assertThat(ctx.last.changed()).isTrue();
        }

        @Test
        void aZombieNamingAStaleEpochIsFenced() {
            TxnTestContext ctx = TxnTestContext.initialized();
            ctx.init(null); // another instance took over: epoch 1
            ctx.init(null); // and again: epoch 2, last epoch unknown

            assertThat(ctx.init(new ProducerIdAndEpoch(PID, (short) 0)).error()).isEqualTo(KafkaError.PRODUCER_FENCED);
            assertThat(ctx.last.changed()).isFalse();
        }

        @Test
        void aCallerNamingAnotherProducerIdIsFenced() {
            TxnTestContext ctx = TxnTestContext.initialized();

            assertThat(ctx.init(new ProducerIdAndEpoch(PID + 5, (short) 0)).error()).isEqualTo(KafkaError.PRODUCER_FENCED);
        }

        @Test
        void aNewEntryAcceptsAnyNamedProducerForRecovery() {
            TxnTestContext ctx = new TxnTestContext();
            ctx.txn = Transaction.create(ID, PID, TIMEOUT_MS, ctx.now);

            assertThat(ctx.init(new ProducerIdAndEpoch(77L, (short) 4))).isEqualTo(InitResult.ok(PID, (short) 0));
        }

        @Test
        void exhaustedEpochsRotateToAFreshProducerId() {
            TxnTestContext ctx = new TxnTestContext();
            ctx.txn = new Transaction(ID, PID, -1L, (short) (Short.MAX_VALUE - 2), (short) -1, TIMEOUT_MS,
                    TxnState.EMPTY, List.of(), List.of(), -1L, ctx.now);

            assertThat(ctx.init(null)).isEqualTo(InitResult.ok(PID, (short) (Short.MAX_VALUE - 1)));
            ProducerIdAndEpoch exhausted = new ProducerIdAndEpoch(PID, (short) (Short.MAX_VALUE - 1));
            InitResult needs = ctx.init(exhausted);
            assertThat(needs.needsFreshProducerId()).isTrue();
            assertThat(ctx.last.changed()).isFalse();

            InitResult rotated = ctx.run(new TxnCommand.InitProducerId(TIMEOUT_MS, exhausted, 2_000L));

            assertThat(rotated).isEqualTo(InitResult.ok(2_000L, (short) 0));
            assertThat(ctx.txn.lastProducerId()).isEqualTo(PID);
            // a retry from the old producer id with its exhausted epoch is recognised, not fenced
            assertThat(ctx.init(exhausted)).isEqualTo(InitResult.ok(2_000L, (short) 0));
            assertThat(ctx.init(new ProducerIdAndEpoch(PID, (short) 5)).error()).isEqualTo(KafkaError.PRODUCER_FENCED);
        }

        @Test
        void aRejoinDuringATransactionAbortsItUnderABumpedEpochFirst() {
            TxnTestContext ctx = TxnTestContext.ongoing();

            InitResult result = ctx.init(null);

            assertThat(result.error()).isEqualTo(KafkaError.CONCURRENT_TRANSACTIONS);
            assertThat(result.abortStarted()).isTrue();
            assertThat(ctx.txn.state()).isEqualTo(TxnState.PREPARE_ABORT);
            assertThat(ctx.txn.producerEpoch()).isEqualTo((short) 1);
            assertThat(ctx.txn.partitions()).containsExactly(P0);

            assertThat(ctx.init(null).error()).as("still aborting").isEqualTo(KafkaError.CONCURRENT_TRANSACTIONS);
            assertThat(ctx.last.changed()).isFalse();
            ctx.complete();
            assertThat(ctx.init(null)).as("the retry").isEqualTo(InitResult.ok(PID, (short) 2));
        }
    }

    @Nested
    class AddPartitionsAndGroups {

        @Test
        void theFirstAddBeginsTheTransaction() {
            TxnTestContext ctx = TxnTestContext.initialized();
            ctx.advance(500);

            assertThat(ctx.add(PID, (short) 0, P1, P0)).isEqualTo(KafkaError.NONE);

            assertThat(ctx.txn.state()).isEqualTo(TxnState.ONGOING);
            assertThat(ctx.txn.partitions()).containsExactly(P0, P1);
            assertThat(ctx.txn.startMs()).isEqualTo(ctx.now);
        }

        @Test
        void laterAddsUniteAndKeepTheStartTime() {
            TxnTestContext ctx = TxnTestContext.ongoing();
            long start = ctx.txn.startMs();
            ctx.advance(100);

            assertThat(ctx.add(PID, (short) 0, P1)).isEqualTo(KafkaError.NONE);
            assertThat(ctx.addGroup(PID, (short) 0, "g")).isEqualTo(KafkaError.NONE);

            assertThat(ctx.txn.partitions()).containsExactly(P0, P1);
            assertThat(ctx.txn.groups()).containsExactly("g");
            assertThat(ctx.txn.startMs()).isEqualTo(start);
        }

        @Test
        void reAddingChangesNothing() {
            TxnTestContext ctx = TxnTestContext.ongoing();
            ctx.addGroup(PID, (short) 0, "g");

            assertThat(ctx.add(PID, (short) 0, P0)).isEqualTo(KafkaError.NONE);
            assertThat(ctx.last.changed()).isFalse();
            assertThat(ctx.addGroup(PID, (short) 0, "g")).isEqualTo(KafkaError.NONE);
            assertThat(ctx.last.changed()).isFalse();
        }

        @Test
        void aGroupAloneBeginsATransactionToo() {
            TxnTestContext ctx = TxnTestContext.initialized();

            assertThat(ctx.addGroup(PID, (short) 0, "g")).isEqualTo(KafkaError.NONE);

            assertThat(ctx.txn.state()).isEqualTo(TxnState.ONGOING);
        }

        @Test
        void theWrongProducerIdIsAMappingErrorAndTheWrongEpochIsFenced() {
            TxnTestContext ctx = TxnTestContext.initialized();

            assertThat(ctx.add(PID + 1, (short) 0, P0)).isEqualTo(KafkaError.INVALID_PRODUCER_ID_MAPPING);
            assertThat(ctx.add(PID, (short) 1, P0)).isEqualTo(KafkaError.PRODUCER_FENCED);
            assertThat(ctx.addGroup(PID, (short) -1, "g")).isEqualTo(KafkaError.PRODUCER_FENCED);
            assertThat(ctx.txn.state()).isEqualTo(TxnState.EMPTY);
        }

        @Test
        void whilePreparedAddsAreConcurrentTransactions() {
            TxnTestContext ctx = TxnTestContext.ongoing();
            ctx.end(true);

            assertThat(ctx.add(PID, (short) 0, P1)).isEqualTo(KafkaError.CONCURRENT_TRANSACTIONS);
            assertThat(ctx.addGroup(PID, (short) 0, "g")).isEqualTo(KafkaError.CONCURRENT_TRANSACTIONS);
        }

        @Test
        void anAddAfterACompletedTransactionBeginsTheNext() {
            TxnTestContext ctx = TxnTestContext.ongoing();
            ctx.end(false);
            ctx.complete();
            ctx.advance(1_000);

            assertThat(ctx.add(PID, (short) 0, P1)).isEqualTo(KafkaError.NONE);

            assertThat(ctx.txn.state()).isEqualTo(TxnState.ONGOING);
            assertThat(ctx.txn.partitions()).containsExactly(P1);
            assertThat(ctx.txn.startMs()).isEqualTo(ctx.now);
        }
    }

    @Nested
    class EndTxn {

        @Test
        void commitPreparesAndKeepsTheDispatchSet() {
            TxnTestContext ctx = TxnTestContext.ongoing();
            ctx.addGroup(PID, (short) 0, "g");

            EndResult result = ctx.end(true);

            assertThat(result).isEqualTo(new EndResult(KafkaError.NONE, true));
            assertThat(ctx.txn.state()).isEqualTo(TxnState.PREPARE_COMMIT);
            assertThat(ctx.txn.partitions()).containsExactly(P0);
            assertThat(ctx.txn.groups()).containsExactly("g");
        }

        @Test
        void completingClearsTheDispatchSet() {
            TxnTestContext ctx = TxnTestContext.ongoing();
            ctx.end(false);

            assertThat(ctx.complete()).isEqualTo(KafkaError.NONE);

            assertThat(ctx.txn.state()).isEqualTo(TxnState.COMPLETE_ABORT);
            assertThat(ctx.txn.partitions()).isEmpty();
            assertThat(ctx.txn.groups()).isEmpty();
        }

        @Test
        void aRetryWhilePreparedWaitsForTheSameOutcome() {
            TxnTestContext ctx = TxnTestContext.ongoing();
            ctx.end(true);

            assertThat(ctx.end(true)).isEqualTo(new EndResult(KafkaError.NONE, true));
            assertThat(ctx.last.changed()).isFalse();
            assertThat(ctx.end(false).error()).isEqualTo(KafkaError.INVALID_TXN_STATE);
        }

        @Test
        void aRetryAfterCompletionIsAnsweredAtOnce() {
            TxnTestContext ctx = TxnTestContext.ongoing();
            ctx.end(true);
            ctx.complete();

            assertThat(ctx.end(true)).isEqualTo(new EndResult(KafkaError.NONE, false));
            assertThat(ctx.last.changed()).isFalse();
            assertThat(ctx.end(false).error()).isEqualTo(KafkaError.INVALID_TXN_STATE);
        }

        @Test
        void aCompletedAbortAnswersAnAbortRetryAndRefusesACommit() {
            TxnTestContext ctx = TxnTestContext.ongoing();
            ctx.end(false);
            ctx.complete();

            assertThat(ctx.end(false)).isEqualTo(new EndResult(KafkaError.NONE, false));
            assertThat(ctx.end(true).error()).isEqualTo(KafkaError.INVALID_TXN_STATE);
        }

        @Test
        void endingNothingIsInvalidTxnState() {
            TxnTestContext ctx = TxnTestContext.initialized();

            assertThat(ctx.end(true).error()).isEqualTo(KafkaError.INVALID_TXN_STATE);
            assertThat(ctx.end(false).error()).isEqualTo(KafkaError.INVALID_TXN_STATE);
        }

        @Test
        void theWrongProducerOrEpochIsRefused() {
            TxnTestContext ctx = TxnTestContext.ongoing();

            assertThat(ctx.end(PID + 1, (short) 0, true).error()).isEqualTo(KafkaError.INVALID_PRODUCER_ID_MAPPING);
            assertThat(ctx.end(PID, (short) 1, true).error()).as("a client may not bump").isEqualTo(KafkaError.PRODUCER_FENCED);
            assertThat(ctx.txn.state()).isEqualTo(TxnState.ONGOING);
        }

        @Test
        void theCoordinatorMayAbortWithANewerEpoch() {
            TxnTestContext ctx = TxnTestContext.ongoing();

            EndResult result = ctx.run(new TxnCommand.EndTxn(PID, (short) 4, false, false));

            assertThat(result.awaitMarkers()).isTrue();
            assertThat(ctx.txn.producerEpoch()).isEqualTo((short) 4);
        }

        @Test
        void completingWhatIsNotPreparedIsRefused() {
            TxnTestContext ctx = TxnTestContext.ongoing();

            assertThat(ctx.complete()).isEqualTo(KafkaError.INVALID_TXN_STATE);
            assertThat(ctx.last.changed()).isFalse();
        }
    }

    @Nested
    class Timeouts {

        @Test
        void anOngoingTransactionIsAbortedOnceItsTimeoutPassed() {
            TxnTestContext ctx = TxnTestContext.ongoing();
            ctx.advance(TIMEOUT_MS);

            assertThat(ctx.run(new TxnCommand.AbortIfTimedOut())).as("exactly at the deadline").isFalse();
            ctx.advance(1);
            assertThat(ctx.run(new TxnCommand.AbortIfTimedOut())).isTrue();

            assertThat(ctx.txn.state()).isEqualTo(TxnState.PREPARE_ABORT);
            assertThat(ctx.txn.producerEpoch()).as("the producer is fenced").isEqualTo((short) 1);
            assertThat(ctx.txn.partitions()).as("the markers it owes").containsExactly(P0);
            assertThat(ctx.end(PID, (short) 0, true).error()).isEqualTo(KafkaError.PRODUCER_FENCED);
            assertThat(ctx.add(PID, (short) 0, P1)).isEqualTo(KafkaError.PRODUCER_FENCED);
        }

        @Test
        void onlyOngoingTransactionsTimeOut() {
            TxnTestContext ctx = TxnTestContext.initialized();
            ctx.advance(10L * TIMEOUT_MS);

            assertThat(ctx.run(new TxnCommand.AbortIfTimedOut())).isFalse();
        }

        @Test
        void anIdleIdExpires() {
            TxnTestContext ctx = TxnTestContext.initialized();
            ctx.advance(1_000);

            assertThat(ctx.run(new TxnCommand.ExpireIfIdle(1_001))).isFalse();
            assertThat(ctx.run(new TxnCommand.ExpireIfIdle(1_000))).isTrue();
            assertThat(ctx.txn.state()).isEqualTo(TxnState.DEAD);
        }

        @Test
        void aTransactionInProgressNeverExpires() {
            TxnTestContext ctx = TxnTestContext.ongoing();
            ctx.advance(100_000_000L);

            assertThat(ctx.run(new TxnCommand.ExpireIfIdle(1))).isFalse();
        }
    }

    @Nested
    class Verification {

        @Test
        void onlyPartitionsAndGroupsOfTheTransactionInProgressPass() {
            TxnTestContext ctx = TxnTestContext.ongoing();
            ctx.addGroup(PID, (short) 0, "g");

            assertThat(ctx.txn.verify(PID, (short) 0, Set.of(P0, P1)))
                    .containsExactlyInAnyOrderEntriesOf(Map.of(P0, KafkaError.NONE, P1, KafkaError.INVALID_TXN_STATE));
            assertThat(ctx.txn.verifyGroup(PID, (short) 0, "g")).isEqualTo(KafkaError.NONE);
            assertThat(ctx.txn.verifyGroup(PID, (short) 0, "h")).isEqualTo(KafkaError.INVALID_TXN_STATE);
        }

        @Test
        void aWrongProducerAPreparedTransactionOrNoneAtAllFail() {
            TxnTestContext ctx = TxnTestContext.ongoing();

            assertThat(ctx.txn.verify(PID + 1, (short) 0, Set.of(P0))).containsEntry(P0, KafkaError.INVALID_PRODUCER_ID_MAPPING);
            assertThat(ctx.txn.verify(PID, (short) 1, Set.of(P0))).containsEntry(P0, KafkaError.PRODUCER_FENCED);
            ctx.end(true);
            assertThat(ctx.txn.verify(PID, (short) 0, Set.of(P0))).containsEntry(P0, KafkaError.CONCURRENT_TRANSACTIONS);
            assertThat(ctx.txn.verifyGroup(PID, (short) 0, "g")).isEqualTo(KafkaError.CONCURRENT_TRANSACTIONS);
            ctx.complete();
            assertThat(ctx.txn.verifyGroup(PID, (short) 0, "g")).isEqualTo(KafkaError.INVALID_TXN_STATE);
        }
    }

    @Test
    void applyRefusesTransitionsTheStateMachineForbids() {
        TxnTestContext ctx = TxnTestContext.initialized();

        assertThatThrownBy(() -> ctx.txn.apply(new TxnEvent.EndCompleted(ctx.now)))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("Empty");
        assertThatThrownBy(() -> ctx.txn.apply(new TxnEvent.EndPrepared(true, (short) 0, (short) -1, ctx.now)))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void replayingTheEventsRebuildsTheTransaction() {
        TxnTestContext ctx = TxnTestContext.initialized();
        Transaction start = ctx.txn;
        List<TxnEvent> events = new ArrayList<>();
        ctx.add(PID, (short) 0, P0);
        events.addAll(ctx.last.events());
        ctx.addGroup(PID, (short) 0, "g");
        events.addAll(ctx.last.events());
        ctx.end(true);
        events.addAll(ctx.last.events());

        Transaction replayed = start;
        for (TxnEvent e : events) {
            replayed = replayed.apply(e);
        }

        assertThat(replayed).isEqualTo(ctx.txn);
    }

    @Test
    void timeoutsArePositiveAndCapped() {
        assertThat(Transaction.isValidTimeout(1, 900_000)).isTrue();
        assertThat(Transaction.isValidTimeout(900_000, 900_000)).isTrue();
        assertThat(Transaction.isValidTimeout(900_001, 900_000)).isFalse();
        assertThat(Transaction.isValidTimeout(0, 900_000)).isFalse();
    }
}
