package io.kaas.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.Test;

/**
 * The wire adapter reaches the application through its use cases only: {@code port.in} and the domain,
 * never the services, the storage engine or another adapter; it implements one driven port, the record
 * search that needs kafka-clients' decompressors. {@link WireRulesCatchViolationsTest} shows
 * the rule firing on fixtures.
 */
class WireRulesTest {

    static final ArchRule WIRE_DEPENDS_ONLY_ON_PORT_IN_AND_DOMAIN = KaasRules.wireDependsOnlyOnPortInAndDomain(KaasRules.KAAS);

    @Test
    void wireDependsOnlyOnPortInAndDomain() {
        JavaClasses kaas = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages(KaasRules.KAAS);
        WIRE_DEPENDS_ONLY_ON_PORT_IN_AND_DOMAIN.check(kaas);
    }
}
