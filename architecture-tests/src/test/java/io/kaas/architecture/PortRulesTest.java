package io.kaas.architecture;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/** Ports are the only way out of the application (see {@link PortRulesCatchViolationsTest}). */
@AnalyzeClasses(packages = "io.kaas", importOptions = ImportOption.DoNotIncludeTests.class)
class PortRulesTest {

    @ArchTest
    static final ArchRule applicationDoesFileIoOnlyThroughTheFilesystemPort =
            KaasRules.applicationDoesFileIoOnlyThroughTheFilesystemPort(KaasRules.KAAS);
}
