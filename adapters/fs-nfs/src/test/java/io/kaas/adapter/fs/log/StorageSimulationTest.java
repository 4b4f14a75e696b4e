package io.kaas.adapter.fs.log;

import static io.kaas.adapter.fs.log.Batches.stored;

import io.kaas.adapter.fs.sim.SimOptions;
import io.kaas.application.log.AppendResult;
import io.kaas.application.log.LogRead;
import io.kaas.application.log.PartitionLog;
import io.kaas.domain.batch.RecordBatchHeader;
import io.kaas.domain.error.KafkaError;
import io.kaas.domain.log.LogOffsets;
import io.kaas.domain.topic.Topic;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map.Entry;
import java.util.Map;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * Seeded random runs of the disk log on the simulated filesystem with torn (and garbled) writes:
 * random appends of valid v2 batches (some from an idempotent producer), acks=-1 and acks=1, small
 * segments so rolls happen, retention, DeleteRecords, failing fsyncs and a full disk, then a power
 * loss, a killed process or a clean stop at a random point, and recovery in a fresh engine - a few
 * lives per run. After every recovery:
 * <ul>
 * <li>every batch an acks=-1 append was told is durable is there, byte-identical (base offset and
 * leader epoch aside) at its offset and in order;</li>
 * <li>offsets run contiguously from the log start to the high watermark, and every batch there is
 * one that was written at that offset - nothing past the durable tail survives that was never written;</li>
 * <li>after a killed process or a clean stop nothing written is lost;</li>
 * <li>the log start is at least what DeleteRecords confirmed, and no more than was ever asked for;</li>
 * <li>a retry of the idempotent producer's last batch is a duplicate with its original offset;</li>
 * <li>the log accepts new appends continuing the offsets.</li>
 * </ul>
 * Single-threaded and deterministic: the committer runs when the run says so. A failure names its
 * seed; {@code -Dkaas.sim.seed=N} replays just that run, {@code -Dkaas.sim.runs} and
 * {@code -Dkaas.sim.firstSeed} choose how many and which.
 */
class StorageSimulationTest {
    private static final int RUNS = Integer.getInteger("kaas.sim.runs", 3000);
    private static final long FIRST_SEED = Long.getLong("kaas.sim.firstSeed", 1L);
    private static final long PRODUCER_ID = 4242;

    @Test
    void acknowledgedBatchesSurviveEveryCrash() {
        String replay = System.getProperty("kaas.sim.seed");
        if (replay != null) {
            run(Long.parseLong(replay.trim()));
            return;
        }
        for (long seed = FIRST_SEED; seed < FIRST_SEED + RUNS; seed++) {
            run(seed);
        }
    }

    private static void run(long seed) {
        Run run = new Run(seed);
        try {
            run.execute();
        } catch (Throwable t) {
            AssertionError failure = new AssertionError("storage simulation failed for seed " + seed
                    + " (replay with -Dkaas.sim.seed=" + seed + "): " + t.getMessage() + "\nlast events:\n  "
                    + String.join("\n  ", run.events), t);
            throw failure;
        }
    }

    /** One batch the log holds (or held) at its base offset, as the log must return it. */
    private record Expected(long base, long last, byte[] bytes, boolean fromProducer, int firstSeq, int lastSeq) {
    }

    /** An acks=-1 append waiting for its fsync. */
    private record Waiting(CompletableFuture<Void> durable, long end) {
    }

    private enum Ending { POWER_LOSS, KILL, CLEAN_STOP }

    private static final class Run {
        final Random random;
        final EngineFixture f;
        final Topic topic;
        final Deque<String> events = new ArrayDeque<>();
        /** What the log held at the last recovery and was written since, by base offset. */
        final TreeMap<Long, Expected> model = new TreeMap<>();
        final List<Waiting> waiting = new ArrayList<>();
        final boolean flushEveryRecord;
        /** Every offset below this was acknowledged durable (acks=-1 after its fsync). */
        long ackedEnd;
        /** The highest offset DeleteRecords confirmed: durable. */
        long confirmedStart;
        /** The highest log start the log ever had or was asked for. */
        long claimedStart;
        int nextSequence;
        /** The idempotent producer's batches in the log, including those below the log start (its state outlives them). */
        final TreeMap<Long, Expected> producerBatches = new TreeMap<>();

        /** Odds (1 in n) that the power fails just before a given file fsync, or 0 when not armed. */
        int crashOdds;
        boolean crashedMidway;

        Run(long seed) {
            this.random = new Random(seed);
            this.f = new EngineFixture(seed, SimOptions.reliable().withTornWrites(true)
                    .withGarbledTornPage(random.nextBoolean()));
            // its own draws (the other choices of a seed stay as they were), well mixed: java.util.Random's first
            // boolean is the same for neighbouring seeds
            SplittableRandom journalChoice = new SplittableRandom(seed);
            if (journalChoice.nextBoolean()) {
                f.useJournal(200 + journalChoice.nextInt(4000));
                events.add("journal on");
            }
            Map<String, String> configs = new HashMap<>();
            configs.put("segment.bytes", Integer.toString(300 + random.nextInt(3000)));
            configs.put("index.interval.bytes", Integer.toString(1 << (5 + random.nextInt(6))));
            configs.put("segment.ms", Long.toString(random.nextBoolean() ? 7L * 24 * 3600 * 1000 : 500 + random.nextInt(5000)));
            configs.put("retention.ms", Long.toString(random.nextInt(3) == 0 ? -1 : 1000 + random.nextInt(20_000)));
            configs.put("retention.bytes", Long.toString(random.nextInt(3) == 0 ? -1 : 1000 + random.nextInt(10_000)));
            flushEveryRecord = random.nextInt(4) != 0;
            configs.put("flush.messages", flushEveryRecord ? "1" : Integer.toString(2 + random.nextInt(4)));
            this.topic = EngineFixture.topic("sim", 1, configs);
            f.checkpointIntervalBytes = 200 + random.nextInt(5000);
            f.epoch = random.nextInt(3);
            event("config " + configs + " checkpoint every " + f.checkpointIntervalBytes + " bytes, epoch " + f.epoch);
            // Power losses in the middle of the engine's own work: the committer's fsyncs, index and snapshot
            // writes, a close, DeleteRecords, a recovery. The dead process then does nothing more.
            f.fs.beforeForce(path -> {
                if (crashOdds > 0 && random.nextInt(crashOdds) == 0) {
                    crashOdds = 0;
                    crashedMidway = true;
                    event("power loss just before fsyncing " + path.getFileName());
                    f.sim.crash();
                }
            });
        }

        void event(String e) {
            events.addLast(e);
            if (events.size() > 60) {
                events.removeFirst();
            }
        }

        void execute() {
            int lives = 2 + random.nextInt(3);
            for (int life = 0; life < lives; life++) {
                PartitionLog log = open(life > 0 && random.nextInt(8) == 0);
                verifyRecovered(log, life == 0 ? null : lastEnding);
                crashOdds = random.nextInt(3) == 0 ? 1 + random.nextInt(30) : 0;
                live(log, 10 + random.nextInt(60));
                end(log);
            }
            PartitionLog log = open(false);
            verifyRecovered(log, lastEnding);
            long end = log.offsets().highWatermark();
            check(appendBase(log, batchOf(1 + random.nextInt(3), false), -1) == end, "the next append continues at " + end);
        }

        Ending lastEnding;

        /** Opens the partition in a fresh process; a power loss may interrupt the recovery, which then starts over. */
        PartitionLog open(boolean mayCrashDuringRecovery) {
            crashOdds = mayCrashDuringRecovery ? 1 + random.nextInt(4) : 0;
            while (true) {
                try {
                    PartitionLog log = f.open(topic, 0);
                    crashOdds = 0;
                    return log;
                } catch (RuntimeException e) {
                    if (!crashedMidway) {
                        throw e;
                    }
                    crashedMidway = false;
                    lastEnding = Ending.POWER_LOSS;
                    event("recovery interrupted: " + e);
                    f.kill();
                }
            }
        }

        // ------------------------------------------------------------------------------ a life

        void live(PartitionLog log, int operations) {
            for (int op = 0; op < operations && !crashedMidway; op++) {
                int dice = random.nextInt(100);
                if (dice < 55) {
                    appendOne(log);
                } else if (dice < 72) {
                    event("commit");
                    f.commit();
                    settleWaiters();
                } else if (dice < 77) {
                    f.clock.advance(random.nextInt(3000));
                } else if (dice < 79) {
                    event("next fsync fails");
                    f.sim.failNextFsyncs(1);
                } else if (dice < 83) {
                    long capacity = f.sim.usedBytes() + random.nextInt(400);
                    event("disk full at " + capacity + " bytes");
                    f.sim.setCapacityBytes(capacity);
                    appendOne(log);
                    f.sim.setCapacityBytes(Long.MAX_VALUE);
                } else if (dice < 87) {
                    deleteRecords(log);
                } else if (dice < 91) {
                    event("retention at " + f.clock.nowMs());
                    f.commit(); // as the cleaner runs long after the committer sealed what rolled
                    settleWaiters();
                    if (crashedMidway) {
                        break;
                    }
                    log.applyRetention(f.clock.nowMs());
                    observeLogStart(log);
                } else if (dice < 95) {
                    verifyLive(log);
                } else {
                    retryLastProducerBatch(log);
                }
            }
            f.sim.failNextFsyncs(0); // a pending injected failure must not hit the next life's recovery
        }

        void end(PartitionLog log) {
            int dice = random.nextInt(10);
            if (crashedMidway) {
                crashedMidway = false;
                lastEnding = Ending.POWER_LOSS;
                f.kill();
            } else if (dice < 6) {
                if (random.nextBoolean()) {
                    f.commit(); // sometimes right after a commit, sometimes in the middle of everything
                    settleWaiters();
                }
                lastEnding = Ending.POWER_LOSS;
                event("power loss");
                f.crash();
                crashedMidway = false;
            } else if (dice < 8) {
                lastEnding = Ending.KILL;
                event("process killed");
                f.kill();
            } else {
                lastEnding = Ending.CLEAN_STOP;
                event("clean stop");
                f.close();
                settleWaiters();
                if (crashedMidway) { // the power failed during the close
                    crashedMidway = false;
                    lastEnding = Ending.POWER_LOSS;
                    f.kill();
                }
            }
            crashOdds = 0;
            waiting.clear();
            if (random.nextInt(5) == 0) {
                f.epoch++;
                event("next life with epoch " + f.epoch);
            }
        }

        void appendOne(PartitionLog log) {
            boolean idempotent = random.nextInt(3) == 0;
            int records = 1 + random.nextInt(random.nextInt(10) == 0 ? 50 : 4);
            byte[] batch = batchOf(records, idempotent);
            short acks = random.nextBoolean() ? (short) -1 : (short) 1;
            appendBase(log, batch, acks);
        }

        byte[] batchOf(int records, boolean idempotent) {
            int filler = records + random.nextInt(random.nextInt(8) == 0 ? 2000 : 300);
            long timestamp = f.clock.nowMs() - random.nextInt(1000);
            return idempotent
                    ? Batches.batch(records, filler, timestamp, PRODUCER_ID, (short) 0, nextSequence, random)
                    : Batches.batch(records, filler, timestamp, random);
        }

        /** Appends; the base offset, or -1 if refused. */
        long appendBase(PartitionLog log, byte[] sent, int acks) {
            RecordBatchHeader header = Batches.header(sent);
            AppendResult result = log.append(ByteBuffer.wrap(sent.clone()), f.clock.nowMs());
            event("append " + header.recordsCount() + " records, " + sent.length + " bytes, acks=" + acks
                    + (header.hasProducerId() ? ", seq " + header.baseSequence() : "") + " -> " + result);
            if (result instanceof AppendResult.Appended appended) {
                long base = appended.baseOffset();
                long expectedBase = model.isEmpty() ? log.offsets().highWatermark() - header.recordsCount()
                        : model.lastEntry().getValue().last + 1;
                check(base == expectedBase, "appended at " + base + ", the log end was " + expectedBase);
                model.put(base, new Expected(base, base + header.lastOffsetDelta(), stored(sent, base, log.leaderEpoch()),
                        header.hasProducerId(), header.baseSequence(), header.lastSequence()));
                if (header.hasProducerId()) {
                    nextSequence = header.lastSequence() + 1;
                    producerBatches.put(base, model.get(base));
                }
                CompletableFuture<Void> durable = appended.durable().toCompletableFuture();
                if (acks == -1) {
                    // with flush.messages > 1 an ack that did not wait says nothing about durability
                    if (flushEveryRecord || !durable.isDone()) {
                        waiting.add(new Waiting(durable, base + header.lastOffsetDelta() + 1));
                        settleWaiters();
                    }
                }
                return base;
            }
            check(result instanceof AppendResult.Rejected rejected && rejected.error() == KafkaError.KAFKA_STORAGE_ERROR,
                    "only a storage error may refuse these appends: " + result);
            return -1;
        }

        void settleWaiters() {
            waiting.removeIf(w -> {
                if (!w.durable.isDone()) {
                    return false;
                }
                if (!w.durable.isCompletedExceptionally()) {
                    ackedEnd = Math.max(ackedEnd, w.end);
                    event("acknowledged durable up to " + w.end);
                }
                return true;
            });
        }

        void deleteRecords(PartitionLog log) {
            LogOffsets offsets = log.offsets();
            long target = offsets.logStartOffset() + random.nextInt((int) (offsets.highWatermark() - offsets.logStartOffset() + 3));
            KafkaError error = log.deleteRecordsBefore(target);
            event("delete records before " + target + " -> " + error);
            if (error == KafkaError.OFFSET_OUT_OF_RANGE) {
                check(target > offsets.highWatermark(), "DeleteRecords below the high watermark is in range");
                return;
            }
            claimedStart = Math.max(claimedStart, target);
            if (error == KafkaError.NONE) {
                confirmedStart = Math.max(confirmedStart, target);
                check(log.offsets().logStartOffset() >= target, "DeleteRecords moved the log start");
            } else {
                check(error == KafkaError.KAFKA_STORAGE_ERROR, "DeleteRecords failed with " + error);
            }
            observeLogStart(log);
        }

        /** A log start that moved in memory may not be durable yet: the model keeps what lies below it until recovery. */
        void observeLogStart(PartitionLog log) {
            claimedStart = Math.max(claimedStart, log.offsets().logStartOffset());
        }

        void retryLastProducerBatch(PartitionLog log) {
            Expected last = lastProducerBatch(log.offsets().logStartOffset());
            if (last == null) {
                return;
            }
            byte[] sent = stored(last.bytes, 0, -1);
            AppendResult result = log.append(ByteBuffer.wrap(sent), f.clock.nowMs());
            event("retry seq " + last.firstSeq + " -> " + result);
            if (result instanceof AppendResult.Rejected rejected && rejected.error() == KafkaError.KAFKA_STORAGE_ERROR) {
                return; // stalled: refused before classification
            }
            check(result instanceof AppendResult.Duplicate duplicate && duplicate.baseOffset() == last.base,
                    "a retry of the batch at " + last.base + " is a duplicate of it: " + result);
        }

        /** The producer's last batch if it is still readable (at or past the log start). */
        Expected lastProducerBatch(long logStart) {
            Entry<Long, Expected> last = producerBatches.lastEntry();
            return last != null && last.getKey() >= logStart ? last.getValue() : null;
        }

        // ------------------------------------------------------------------------------ checks

        void verifyLive(PartitionLog log) {
            event("read everything");
            long start = log.offsets().logStartOffset();
            List<Expected> expected = model.values().stream().filter(e -> e.last >= start).toList();
            List<byte[]> read = readFromStart(log);
            check(read.size() == expected.size(), "read " + read.size() + " batches, the log holds " + expected.size());
            for (int i = 0; i < read.size(); i++) {
                check(Arrays.equals(read.get(i), expected.get(i).bytes), "batch at " + expected.get(i).base
                        + " reads back as written");
            }
        }

        void verifyRecovered(PartitionLog log, Ending ending) {
            LogOffsets offsets = log.offsets();
            long start = offsets.logStartOffset();
            long end = offsets.highWatermark();
            long written = model.isEmpty() ? end : model.lastEntry().getValue().last + 1;
            event("recovered after " + ending + ": log start " + start + ", high watermark " + end
                    + " (written up to " + written + ", acknowledged up to " + ackedEnd + ")");
            check(start <= end, "log start " + start + " <= high watermark " + end);
            check(end >= ackedEnd, "every acknowledged batch survived: high watermark " + end + " >= " + ackedEnd);
            check(start >= Math.min(confirmedStart, end), "DeleteRecords up to " + confirmedStart + " survived");
            check(start <= claimedStart, "the log start " + start + " was never asked for (at most " + claimedStart + ")");
            if (ending == Ending.KILL || ending == Ending.CLEAN_STOP) {
                check(end == written, "nothing written is lost without a power loss: " + end + " == " + written);
            }
            List<byte[]> read = readFromStart(log);
            long next = -1;
            for (byte[] batch : read) {
                RecordBatchHeader h = Batches.header(batch);
                if (next < 0) {
                    check(h.baseOffset() <= start && start <= h.lastOffset(), "the first batch holds the log start");
                } else {
                    check(h.baseOffset() == next, "offsets are contiguous: " + h.baseOffset() + " follows " + (next - 1));
                }
                Expected e = model.get(h.baseOffset());
                check(e != null, "the batch at " + h.baseOffset() + " was written there");
                check(Arrays.equals(batch, e.bytes), "the batch at " + h.baseOffset() + " is byte-identical to what was written");
                next = h.lastOffset() + 1;
            }
            check(read.isEmpty() ? start == end : next == end, "the batches end at the high watermark");
            // the model becomes what recovery kept
            model.tailMap(end, true).clear();
            model.headMap(start).entrySet().removeIf(e -> e.getValue().last < start);
            claimedStart = Math.max(claimedStart, start);
            // a confirmed DeleteRecords past the recovered end covered offsets that were never durable; they are reused
            confirmedStart = start;
            // the producer carries on after the last batch the log kept (a real one would be told OUT_OF_ORDER and reset)
            producerBatches.tailMap(end, true).clear();
            nextSequence = producerBatches.isEmpty() ? 0 : producerBatches.lastEntry().getValue().lastSeq + 1;
            if (lastProducerBatch(start) != null) {
                retryLastProducerBatch(log);
            }
        }

        List<byte[]> readFromStart(PartitionLog log) {
            List<byte[]> out = new ArrayList<>();
            long next = log.offsets().logStartOffset();
            while (next < log.offsets().highWatermark()) {
                LogRead read = log.read(next, 1 + random.nextInt(8000), true);
                check(read.error() == KafkaError.NONE, "read at " + next + ": " + read.error());
                List<byte[]> batches = Batches.split(read.records().toByteBuffer());
                check(!batches.isEmpty(), "a read at " + next + " below the high watermark returns a batch");
                out.addAll(batches);
                next = Batches.header(batches.get(batches.size() - 1)).lastOffset() + 1;
            }
            return out;
        }

        void check(boolean condition, String what) {
            if (!condition) {
                throw new AssertionError(what);
            }
        }
    }
}
