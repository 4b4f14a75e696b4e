package io.kaas.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import io.kaas.application.port.out.BatchRecordSearch;
import io.kaas.application.port.out.CompactionRecords;
import io.kaas.application.port.out.RecordKeys;
import java.nio.ByteBuffer;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;
import org.apache.kafka.common.record.MemoryRecords;
import org.apache.kafka.common.record.MutableRecordBatch;
import org.apache.kafka.common.record.Record;
import org.apache.kafka.common.record.RecordBatch;
import org.junit.jupiter.api.Test;

/** The byte-opacity rules must flag real record decoding, or they prove nothing. */
class ByteOpacityRulesCatchViolationsTest {

    @Test
    void recordIterationIsFlagged() {
        JavaClasses decoder = new ClassFileImporter().importClasses(RecordDecoder.class);
        assertThat(ByteOpacityRulesTest.noRecordIteration.evaluate(decoder).hasViolation()).isTrue();
        assertThat(ByteOpacityRulesTest.noRecordLevelTypes.evaluate(decoder).hasViolation()).isTrue();
    }

    @Test
    void recordIterationByMethodReferenceIsFlagged() {
        JavaClasses decoder = new ClassFileImporter().importClasses(BatchesByReference.class);
        assertThat(ByteOpacityRulesTest.noRecordIteration.evaluate(decoder).getFailureReport().getDetails())
                .anySatisfy(line -> assertThat(line).contains(BatchesByReference.class.getName())
                        .contains("references method <org.apache.kafka.common.record.MemoryRecords.batches()>"));
    }

    @Test
    void aRecordLevelTypeNamedOnlyByMethodReferenceIsFlagged() {
        JavaClasses decoder = new ClassFileImporter().importClasses(OffsetsByReference.class);
        assertThat(ByteOpacityRulesTest.noRecordLevelTypes.evaluate(decoder).getFailureReport().getDetails())
                .anySatisfy(line -> assertThat(line).contains(OffsetsByReference.class.getName())
                        .contains("<org.apache.kafka.common.record.Record.offset()>"));
    }

    @Test
    void headerOnlyAccessPasses() {
        JavaClasses opaque = new ClassFileImporter().importClasses(OpaqueMover.class);
        assertThat(ByteOpacityRulesTest.noRecordIteration.evaluate(opaque).hasViolation()).isFalse();
        assertThat(ByteOpacityRulesTest.noRecordLevelTypes.evaluate(opaque).hasViolation()).isFalse();
    }

    @Test
    void reachingTheRecordSearchOutsideTimestampLookupsIsFlagged() {
        JavaClasses produce = new ClassFileImporter().importClasses(ProduceThatSearchesRecords.class);
        assertThat(ByteOpacityRulesTest.onlyTimestampLookupsSearchRecords.evaluate(produce).hasViolation()).isTrue();
    }

    @Test
    void reachingTheCleanersRecordsOutsideTheCleanerIsFlagged() {
        JavaClasses fetch = new ClassFileImporter().importClasses(FetchThatCompacts.class);
        assertThat(ByteOpacityRulesTest.onlyTheLogCleanerCompactsRecords.evaluate(fetch).hasViolation()).isTrue();
        assertThat(ByteOpacityRulesTest.onlyProduceChecksKeys.evaluate(fetch).hasViolation()).isTrue();
    }

    /** A serving path reaching for the cleaner's and the produce check's record readers. */
    static final class FetchThatCompacts {
        Object keys(CompactionRecords records, RecordKeys keys, ByteBuffer batch) {
            records.readKeys(batch, null);
            return keys.recordsWithoutKey(batch);
        }
    }

    /** What broker code must not do. */
    static final class RecordDecoder {
        long sumOffsets(MemoryRecords records) {
            long sum = 0;
            for (RecordBatch batch : records.batches()) {
                for (Record record : batch) {
                    sum += record.offset();
                }
            }
            return sum;
        }
    }

    /** A serving path other than ListOffsets reading records through the port. */
    static final class ProduceThatSearchesRecords {
        Object firstRecord(BatchRecordSearch records, ByteBuffer batch) {
            return records.firstAtOrAfter(batch, 0, 0);
        }
    }

    /** Iterates batches without calling {@code batches()} itself. */
    static final class BatchesByReference {
        Supplier<Iterable<MutableRecordBatch>> batches(MemoryRecords records) {
            return records::batches;
        }
    }

    /** Names {@code Record} only through a method reference. */
    static final class OffsetsByReference {
        Object offsets() {
            ToLongFunction<Record> offset = Record::offset;
            return offset;
        }
    }

    /** What broker code does: wrap and unwrap the bytes. */
    static final class OpaqueMover {
        ByteBuffer bytes(ByteBuffer in) {
            return MemoryRecords.readableRecords(in).buffer();
        }
    }
}
