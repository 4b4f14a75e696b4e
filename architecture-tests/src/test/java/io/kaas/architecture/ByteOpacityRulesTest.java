package io.kaas.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import io.kaas.adapter.wire.codec.KafkaBatchRecordSearch;
import io.kaas.adapter.wire.codec.KafkaCompactionRecords;
import io.kaas.adapter.wire.codec.KafkaRecordKeys;
import io.kaas.application.fetch.ListOffsetsService;
import io.kaas.application.metrics.ByteOpacityTripwires;
import io.kaas.application.log.DiskLogEngine;
import io.kaas.application.log.LogCleaner;
import io.kaas.application.port.out.BatchRecordSearch;
import io.kaas.application.port.out.CompactionRecords;
import io.kaas.application.port.out.RecordKeys;
import io.kaas.application.produce.ProduceService;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The broker moves record batches as opaque bytes: nothing may decode individual records or
 * rebuild a batch. This is the static tripwire; the byte-identity integration test is the dynamic one.
 * Three readers are the exceptions, each behind its own port and reachable only from its one user:
 * {@link KafkaBatchRecordSearch} reads the records of the one batch a ListOffsets by timestamp lands
 * on; {@link KafkaCompactionRecords} reads keys and rewrites batches for the log cleaner, on its own
 * thread; {@link KafkaRecordKeys} finds keyless records in a batch produced to a compacted topic.
 * {@link ByteOpacityTripwires} wraps each of the three ports, only to count its calls (the tripwire metrics).
 */
@AnalyzeClasses(packages = "io.kaas", importOptions = ImportOption.DoNotIncludeTests.class)
class ByteOpacityRulesTest {
    private static final String RECORD_SEARCH = KafkaBatchRecordSearch.class.getName();
    private static final String LOG = "io.kaas.application.log";
    /** The record readers and their nested classes. */
    private static final String RECORD_READERS = "(" + Stream.of(KafkaBatchRecordSearch.class,
                    KafkaCompactionRecords.class, KafkaRecordKeys.class)
            .map(c -> Pattern.quote(c.getName())).collect(Collectors.joining("|")) + ")(\\$.*)?";
    /** The counting wrappers of the record ports, and their anonymous classes. */
    private static final String TRIPWIRES = Pattern.quote(ByteOpacityTripwires.class.getName()) + "(\\$.*)?";

    /** kafka-clients types that exist to read or build individual records. */
    @ArchTest
    static final ArchRule noRecordLevelTypes = noClasses().that().haveNameNotMatching(RECORD_READERS)
            .should().dependOnClassesThat().haveFullyQualifiedName(
                    "org.apache.kafka.common.record.Record")
            .orShould().dependOnClassesThat().haveFullyQualifiedName("org.apache.kafka.common.record.DefaultRecord")
            .orShould().dependOnClassesThat().haveFullyQualifiedName("org.apache.kafka.common.record.DefaultRecordBatch")
            .orShould().dependOnClassesThat().haveFullyQualifiedName("org.apache.kafka.common.record.MemoryRecordsBuilder")
            .orShould().dependOnClassesThat().haveFullyQualifiedName("org.apache.kafka.common.record.LegacyRecord")
            .because("records are never decoded or re-encoded on the broker");

    /** Iterating batches or records of a record set decodes them, whether called or passed as a method reference. */
    @ArchTest
    static final ArchRule noRecordIteration = noClasses().that().haveNameNotMatching(RECORD_READERS)
            .should().accessTargetWhere(recordIteration(Set.of("records",
            "batches", "batchIterator", "iterator", "streamingIterator", "firstBatch")))
            .because("records are never decoded on the broker; header peeks only");

    /** The record search is wired by bootstrap into ListOffsets and the logs' timestamp lookup, nowhere else. */
    @ArchTest
    static final ArchRule onlyTimestampLookupsSearchRecords = noClasses()
            .that().doNotHaveFullyQualifiedName(ListOffsetsService.class.getName())
            .and().resideOutsideOfPackages("io.kaas.application.log..", "io.kaas.bootstrap..")
            .and().doNotHaveFullyQualifiedName(RECORD_SEARCH)
            .and().haveNameNotMatching(TRIPWIRES)
            .should().dependOnClassesThat().haveFullyQualifiedName(BatchRecordSearch.class.getName())
            .orShould().dependOnClassesThat().haveFullyQualifiedName(RECORD_SEARCH)
            .because("Produce and Fetch keep batches opaque; only a lookup by timestamp reads one batch's records");

    /** The cleaner's record port is wired by bootstrap into the disk engine's cleaner and its compactor, nowhere else. */
    @ArchTest
    static final ArchRule onlyTheLogCleanerCompactsRecords = noClasses()
            .that().haveNameNotMatching(Stream.of(LogCleaner.class.getName(), DiskLogEngine.class.getName(),
                            LOG + ".DiskPartitionLog", LOG + ".SegmentCompactor")
                    .map(Pattern::quote).collect(Collectors.joining("|", "(", ")(\\$.*)?")))
            .and().resideOutsideOfPackage("io.kaas.bootstrap..")
            .and().haveNameNotMatching(RECORD_READERS)
            .and().haveNameNotMatching(TRIPWIRES)
            .should().dependOnClassesThat().haveFullyQualifiedName(CompactionRecords.class.getName())
            .orShould().dependOnClassesThat().haveFullyQualifiedName(KafkaCompactionRecords.class.getName())
            .because("only the log cleaner, on its own thread, reads keys and rewrites batches; Produce and Fetch keep them opaque");

    /** The keyless-record check is Produce's, for compacted topics only. */
    @ArchTest
    static final ArchRule onlyProduceChecksKeys = noClasses()
            .that().doNotHaveFullyQualifiedName(ProduceService.class.getName())
            .and().resideOutsideOfPackage("io.kaas.bootstrap..")
            .and().haveNameNotMatching(RECORD_READERS)
            .and().haveNameNotMatching(TRIPWIRES)
            .should().dependOnClassesThat().haveFullyQualifiedName(RecordKeys.class.getName())
            .orShould().dependOnClassesThat().haveFullyQualifiedName(KafkaRecordKeys.class.getName())
            .because("only a produce to a compacted topic looks for keyless records");

    private static DescribedPredicate<JavaAccess<?>> recordIteration(Set<String> methods) {
        return DescribedPredicate.describe("a record-iterating method " + new TreeSet<>(methods)
                        + " of org.apache.kafka.common.record",
                access -> access.getTargetOwner().getPackageName().equals("org.apache.kafka.common.record")
                        && methods.contains(access.getName()));
    }
}
