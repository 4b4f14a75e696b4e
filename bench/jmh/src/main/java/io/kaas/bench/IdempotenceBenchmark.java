package io.kaas.bench;

import io.kaas.domain.batch.RecordBatchHeader;
import io.kaas.domain.idempotence.ProducerStateTable;
import io.kaas.domain.idempotence.SequenceCheck;
import java.nio.ByteBuffer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/** Classifying and recording an in-sequence idempotent batch, among many producers: once per produced batch. */
public class IdempotenceBenchmark extends BenchmarkDefaults {
    private static final int RECORDS = 10;

    @Param({"1", "1000"})
    int producers;

    private final ProducerStateTable table = new ProducerStateTable();
    private ByteBuffer[] batches;
    private int[] sequences;
    private int next;
    private long offset;

    @Setup
    public void setUp() {
        batches = new ByteBuffer[producers];
        sequences = new int[producers];
        for (int p = 0; p < producers; p++) {
            batches[p] = Batches.idempotent(1000L + p, 0, RECORDS, 100);
        }
    }

    @Benchmark
    public Object classifyAndRecord() {
        int p = next;
        next = (next + 1) % producers;
        ByteBuffer batch = batches[p];
        batch.putInt(batch.position() + RecordBatchHeader.BASE_SEQUENCE_OFFSET, sequences[p]);
        sequences[p] += RECORDS;
        RecordBatchHeader header = RecordBatchHeader.at(batch);
        SequenceCheck check = table.classify(header);
        table.record(header, offset, 0L);
        offset += RECORDS;
        return check;
    }
}
