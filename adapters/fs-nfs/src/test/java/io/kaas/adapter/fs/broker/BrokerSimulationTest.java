package io.kaas.adapter.fs.broker;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Seeded crash simulation of the whole broker: the services of a standalone disk broker, wired as
 * {@code KaasBroker} wires them ({@link SimulatedBroker}), on the fault-injecting simulated volume,
 * with a manual clock and scheduler and an I/O executor the run steps by hand - everything on the
 * test's thread, in an order the seed decides. Each run ({@link BrokerRun}) lives a few broker
 * processes on one volume. Simulated clients create, delete and reconfigure topics, produce with
 * idempotent and plain producers at acks -1, 1 and 0 (re-sending after retriable errors), run
 * transactions (InitProducerId, AddPartitions, transactional batches, AddOffsetsToTxn and
 * TxnOffsetCommit, EndTxn commit or abort), commit offsets outside and inside a joined group, fetch
 * (read_uncommitted and read_committed), list offsets and fetch offsets, while the volume tears
 * writes, fails fsyncs and fills up. Each process ends in a power loss (possibly just before some
 * fsync, in the middle of any task, or during recovery or shutdown), a killed process or a clean
 * stop; the next one recovers. After every restart, and at the end once every client has settled:
 * <ul>
 * <li>every batch answered NONE to acks=-1 is in its partition once, at the offset it was answered
 * with; no batch is there twice or anywhere it was not sent (an old incarnation's data never
 * resurfaces); each producer's batches are in sequence order; offsets are contiguous and CRCs hold;</li>
 * <li>read_committed (LSO, aborted-transaction index, filtered as Apache's consumer filters) shows
 * every batch of a transaction whose commit was acknowledged, never one of a transaction whose
 * commit was never requested, and at the end a transaction is visible in all its batches or none,
 * with no transaction left open (LSO = HWM);</li>
 * <li>OffsetFetch answers, for every group and partition, a value some commit set that no
 * acknowledged commit must have overwritten since - one requested after its answer, or after it on
 * the same connection (the last acknowledged commit, or a later attempted one) - and nothing after an
 * acknowledged topic deletion;</li>
 * <li>a topic acknowledged as created exists with its id, partition count and acknowledged configs;
 * one whose deletion was acknowledged does not; no topic appears that nobody created; the cluster
 * id never changes and no producer id is handed out twice.</li>
 * </ul>
 * Not promised, so not checked: acks=1 and acks=0 batches may be lost (only: if present, then where
 * they were answered); a request whose answer was an error or never came may or may not have taken
 * effect. Topic configs that weaken durability (flush.messages above 1, short retention) are not
 * part of the workload.
 *
 * <p>A failure names its seed and prints the run's last events. {@code -Dkaas.sim.seed=N} replays that
 * run alone; {@code -Dkaas.sim.runs} (default 1000) and {@code -Dkaas.sim.firstSeed} (default 1) choose
 * the seeds, {@code -Dkaas.sim.maxSeconds} caps the time (no new seed starts after it), and
 * {@code -Dkaas.sim.trace=true} adds every file operation to the events a failure prints. A long run of
 * 100,000 seeds beyond those CI runs (about 14 minutes on two cores; 1000 seeds take about 20 s):
 * <pre>
 * mvn -B -o -pl adapters/fs-nfs -am test -Dtest=BrokerSimulationTest#acknowledgedStateSurvivesEveryCrash \
 *     -Dsurefire.failIfNoSpecifiedTests=false -Dkaas.sim.runs=100000 -Dkaas.sim.firstSeed=1000000
 * </pre>
 */
class BrokerSimulationTest {
    private static final int RUNS = Integer.getInteger("kaas.sim.runs", 1000);
    private static final long FIRST_SEED = Long.getLong("kaas.sim.firstSeed", 1L);
    /** Stops starting new seeds after this long ({@code -Dkaas.sim.maxSeconds}), for time-boxed long runs. */
    private static final long MAX_SECONDS = Long.getLong("kaas.sim.maxSeconds", Long.MAX_VALUE / 1_000_000_000L);

    @Test
    void acknowledgedStateSurvivesEveryCrash() {
        String replay = System.getProperty("kaas.sim.seed");
        if (replay != null) {
            run(Long.parseLong(replay.trim()));
            return;
        }
        long started = System.nanoTime();
        long budgetNanos = MAX_SECONDS * 1_000_000_000L;
        BrokerRun.Stats total = new BrokerRun.Stats();
        long seed = FIRST_SEED;
        for (; seed < FIRST_SEED + RUNS && System.nanoTime() - started < budgetNanos; seed++) {
            if ((seed - FIRST_SEED) % 10_000 == 0 && seed > FIRST_SEED) {
                System.out.printf("broker simulation: %d seeds done in %.0f s%n", seed - FIRST_SEED,
                        (System.nanoTime() - started) / 1e9);
            }
            BrokerRun.Stats stats = run(seed);
            total.operations += stats.operations;
            total.acknowledged += stats.acknowledged;
            total.crashes += stats.crashes;
            total.committedTxns += stats.committedTxns;
            total.abortedTxns += stats.abortedTxns;
            total.offsetCommits += stats.offsetCommits;
            total.checks += stats.checks;
        }
        System.out.printf("broker simulation: %d seeds from %d in %.1f s: %d operations, %d acks=-1 acknowledgements, "
                        + "%d power losses, %d/%d transactions committed/aborted, %d offset commits, %d checks%n",
                seed - FIRST_SEED, FIRST_SEED, (System.nanoTime() - started) / 1e9, total.operations, total.acknowledged,
                total.crashes, total.committedTxns, total.abortedTxns, total.offsetCommits, total.checks);
    }

    /** The same seed makes the same run: same events, same outcome. */
    @Test
    void aSeedReplaysExactly() {
        BrokerRun first = new BrokerRun(42);
        first.execute();
        BrokerRun second = new BrokerRun(42);
        second.execute();
        assertThat(second.stats.operations).isEqualTo(first.stats.operations);
        assertThat(second.trace).as("the digest of every event").isEqualTo(first.trace);
    }

    private static BrokerRun.Stats run(long seed) {
        BrokerRun run = new BrokerRun(seed);
        try {
            run.execute();
        } catch (Throwable t) {
            throw new AssertionError("broker simulation failed for seed " + seed + " (replay with -Dkaas.sim.seed="
                    + seed + "): " + t.getMessage() + "\nlast events:\n  " + String.join("\n  ", run.events), t);
        }
        return run.stats;
    }
}
