package io.kaas.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import java.time.Instant;

/** Time enters the core only through the {@code Clock} port, so tests drive it by hand. */
@AnalyzeClasses(packages = "io.kaas", importOptions = ImportOption.DoNotIncludeTests.class)
class DeterminismRulesTest {

    @ArchTest
    static final ArchRule noWallClockInTheCore = noClasses()
            .that().resideInAnyPackage("io.kaas.domain..", "io.kaas.application..")
            .should().callMethod(System.class, "currentTimeMillis")
            .orShould().callMethod(System.class, "nanoTime")
            .orShould().callMethod(Instant.class, "now")
            .orShould().callMethod(Thread.class, "sleep", long.class)
            .because("the Clock and Scheduler ports are the only sources of time");

    @ArchTest
    static final ArchRule domainStartsNoThreads = noClasses().that().resideInAPackage("io.kaas.domain..")
            .should().dependOnClassesThat().areAssignableTo(Thread.class)
            .orShould().dependOnClassesThat().resideInAPackage("java.util.concurrent..")
            .because("domain state machines are single-threaded and driven by commands");
}
