package io.kaas.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;

/**
 * The wire adapter reaches the application through its use cases only. A plain JUnit test rather than an
 * {@code @ArchTest} so it can be switched off until the code complies; {@link WireRulesCatchViolationsTest}
 * runs the rule against fixtures meanwhile.
 */
class WireRulesTest {

    static final ArchRule WIRE_DEPENDS_ONLY_ON_PORT_IN_AND_DOMAIN = KaasRules.wireDependsOnlyOnPortInAndDomain(KaasRules.KAAS);

    @Test
    @Disabled("enabled when the port.in types land (issue 11)")
    void wireDependsOnlyOnPortInAndDomain() {
        JavaClasses kaas = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages(KaasRules.KAAS);
        WIRE_DEPENDS_ONLY_ON_PORT_IN_AND_DOMAIN.check(kaas);
    }
}
