package io.kaas.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * Time and randomness enter the core only through ports and parameters, so tests drive them by hand.
 * {@link DeterminismRulesCatchViolationsTest} proves the access rules fire, method references included.
 */
@AnalyzeClasses(packages = "io.kaas", importOptions = ImportOption.DoNotIncludeTests.class)
class DeterminismRulesTest {

    @ArchTest
    static final ArchRule noClockOrSleepInTheCore = KaasRules.noClockOrSleepInTheCore(KaasRules.KAAS);

    @ArchTest
    static final ArchRule noRandomnessInTheCore = KaasRules.noRandomnessInTheCore(KaasRules.KAAS);

    @ArchTest
    static final ArchRule domainStartsNoThreads = noClasses().that().resideInAPackage("io.kaas.domain..")
            .should().dependOnClassesThat().areAssignableTo(Thread.class)
            .orShould().dependOnClassesThat().resideInAPackage("java.util.concurrent..")
            .because("domain state machines are single-threaded and driven by commands");
}
