package io.kaas.domain.txn;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.domain.error.KafkaError;
import io.kaas.domain.topic.TopicPartition;
import java.util.Set;

/**
 * One transactional id driven as its coordinator would: commands at a manual clock, each result's
 * transaction becoming the current one (as the service does once it is persisted).
 */
final class TxnTestContext {
    static final String ID = "tx-1";
    static final long PID = 1_000L;
    static final int TIMEOUT_MS = 60_000;
    static final TopicPartition P0 = new TopicPartition("out", 0);
    static final TopicPartition P1 = new TopicPartition("out", 1);

    long now = 1_000_000L;
    Transaction txn;
    TxnResult<?> last;

    /** A new transactional id after its first InitProducerId: PID at epoch 0, Empty. */
    static TxnTestContext initialized() {
        TxnTestContext ctx = new TxnTestContext();
        ctx.txn = Transaction.create(ID, PID, TIMEOUT_MS, ctx.now);
        InitResult init = ctx.init(null);
        assertThat(init).isEqualTo(InitResult.ok(PID, (short) 0));
        return ctx;
    }

    /** Initialized, then partition P0 added: Ongoing. */
    static TxnTestContext ongoing() {
        TxnTestContext ctx = initialized();
        assertThat(ctx.add(PID, (short) 0, P0)).isEqualTo(KafkaError.NONE);
        return ctx;
    }

    <R> R run(TxnCommand<R> command) {
        TxnResult<R> result = txn.handle(command, now);
        last = result;
        txn = result.next();
        return result.response();
    }

    InitResult init(ProducerIdAndEpoch expected) {
        return run(new TxnCommand.InitProducerId(TIMEOUT_MS, expected, -1L));
    }

    KafkaError add(long pid, short epoch, TopicPartition... partitions) {
        return run(new TxnCommand.AddPartitions(pid, epoch, Set.of(partitions)));
    }

    KafkaError addGroup(long pid, short epoch, String group) {
        return run(new TxnCommand.AddGroup(pid, epoch, group));
    }

    EndResult end(boolean commit) {
        return run(new TxnCommand.EndTxn(txn.producerId(), txn.producerEpoch(), commit, true));
    }

    EndResult end(long pid, short epoch, boolean commit) {
        return run(new TxnCommand.EndTxn(pid, epoch, commit, true));
    }

    KafkaError complete() {
        return run(new TxnCommand.CompleteEnd());
    }

    void advance(long ms) {
        now += ms;
    }

    short epoch() {
        return txn.producerEpoch();
    }
}
