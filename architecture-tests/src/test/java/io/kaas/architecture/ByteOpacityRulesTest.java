package io.kaas.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import io.kaas.adapter.wire.codec.KafkaBatchRecordSearch;
import io.kaas.application.fetch.ListOffsetsService;
import io.kaas.application.port.out.BatchRecordSearch;
import java.util.Set;
import java.util.TreeSet;

/**
 * The broker moves record batches as opaque bytes: nothing may decode individual records or
 * rebuild a batch. This is the static tripwire; the byte-identity integration test is the dynamic one.
 * One exception: {@link KafkaBatchRecordSearch} reads the records of the one batch a ListOffsets by
 * timestamp lands on, and only ListOffsets can reach it.
 */
@AnalyzeClasses(packages = "io.kaas", importOptions = ImportOption.DoNotIncludeTests.class)
class ByteOpacityRulesTest {
    private static final String RECORD_SEARCH = KafkaBatchRecordSearch.class.getName();

    /** kafka-clients types that exist to read or build individual records. */
    @ArchTest
    static final ArchRule noRecordLevelTypes = noClasses().that().doNotHaveFullyQualifiedName(RECORD_SEARCH)
            .should().dependOnClassesThat().haveFullyQualifiedName(
                    "org.apache.kafka.common.record.Record")
            .orShould().dependOnClassesThat().haveFullyQualifiedName("org.apache.kafka.common.record.DefaultRecord")
            .orShould().dependOnClassesThat().haveFullyQualifiedName("org.apache.kafka.common.record.DefaultRecordBatch")
            .orShould().dependOnClassesThat().haveFullyQualifiedName("org.apache.kafka.common.record.MemoryRecordsBuilder")
            .orShould().dependOnClassesThat().haveFullyQualifiedName("org.apache.kafka.common.record.LegacyRecord")
            .because("records are never decoded or re-encoded on the broker");

    /** Iterating batches or records of a record set decodes them, whether called or passed as a method reference. */
    @ArchTest
    static final ArchRule noRecordIteration = noClasses().that().doNotHaveFullyQualifiedName(RECORD_SEARCH)
            .should().accessTargetWhere(recordIteration(Set.of("records",
            "batches", "batchIterator", "iterator", "streamingIterator", "firstBatch")))
            .because("records are never decoded on the broker; header peeks only");

    /** The record search is wired by bootstrap into ListOffsets and the logs' timestamp lookup, nowhere else. */
    @ArchTest
    static final ArchRule onlyTimestampLookupsSearchRecords = noClasses()
            .that().doNotHaveFullyQualifiedName(ListOffsetsService.class.getName())
            .and().resideOutsideOfPackages("io.kaas.application.log..", "io.kaas.bootstrap..")
            .and().doNotHaveFullyQualifiedName(RECORD_SEARCH)
            .should().dependOnClassesThat().haveFullyQualifiedName(BatchRecordSearch.class.getName())
            .orShould().dependOnClassesThat().haveFullyQualifiedName(RECORD_SEARCH)
            .because("Produce and Fetch keep batches opaque; only a lookup by timestamp reads one batch's records");

    private static DescribedPredicate<JavaAccess<?>> recordIteration(Set<String> methods) {
        return DescribedPredicate.describe("a record-iterating method " + new TreeSet<>(methods)
                        + " of org.apache.kafka.common.record",
                access -> access.getTargetOwner().getPackageName().equals("org.apache.kafka.common.record")
                        && methods.contains(access.getName()));
    }
}
