package io.kaas.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import com.tngtech.archunit.core.domain.JavaClass;
import java.util.Set;

/**
 * The broker moves record batches as opaque bytes: nothing may decode individual records or
 * rebuild a batch. This is the static tripwire; the byte-identity integration test is the dynamic one.
 */
@AnalyzeClasses(packages = "io.kaas", importOptions = ImportOption.DoNotIncludeTests.class)
class ByteOpacityRulesTest {

    /** kafka-clients types that exist to read or build individual records. */
    @ArchTest
    static final ArchRule noRecordLevelTypes = noClasses().should().dependOnClassesThat().haveFullyQualifiedName(
                    "org.apache.kafka.common.record.Record")
            .orShould().dependOnClassesThat().haveFullyQualifiedName("org.apache.kafka.common.record.DefaultRecord")
            .orShould().dependOnClassesThat().haveFullyQualifiedName("org.apache.kafka.common.record.DefaultRecordBatch")
            .orShould().dependOnClassesThat().haveFullyQualifiedName("org.apache.kafka.common.record.MemoryRecordsBuilder")
            .orShould().dependOnClassesThat().haveFullyQualifiedName("org.apache.kafka.common.record.LegacyRecord")
            .because("records are never decoded or re-encoded on the broker");

    /** Iterating batches or records of a record set decodes them. */
    @ArchTest
    static final ArchRule noRecordIteration = classes().should(neverCall(Set.of("records", "batches", "batchIterator",
            "iterator", "streamingIterator", "firstBatch")));

    private static ArchCondition<JavaClass> neverCall(Set<String> methods) {
        return new ArchCondition<>("never call a record-iterating method of org.apache.kafka.common.record") {
            @Override
            public void check(JavaClass clazz, ConditionEvents events) {
                for (JavaMethodCall call : clazz.getMethodCallsFromSelf()) {
                    boolean recordType = call.getTargetOwner().getPackageName().equals("org.apache.kafka.common.record");
                    if (recordType && methods.contains(call.getName())) {
                        events.add(SimpleConditionEvent.violated(call, call.getDescription()));
                    }
                }
            }
        };
    }
}
