package io.kaas.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.onionArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/** The hexagon's walls (ARCHITECTURE.md "Rules ArchUnit enforces"). */
@AnalyzeClasses(packages = "io.kaas", importOptions = ImportOption.DoNotIncludeTests.class)
class LayeringRulesTest {

    @ArchTest
    static final ArchRule domainIsPureJdk = classes().that().resideInAPackage("io.kaas.domain..")
            .should().onlyDependOnClassesThat().resideInAnyPackage("io.kaas.domain..", "java..", "javax.crypto..")
            .because("the domain is pure, deterministic logic with no dependencies (the JDK's HMAC and PBKDF2, which "
                    + "SCRAM's math needs, are pure functions)");

    @ArchTest
    static final ArchRule onlyTheWireSpeaksKafkaClients = noClasses().that().resideOutsideOfPackage("io.kaas.adapter.wire..")
            .should().dependOnClassesThat().resideInAPackage("org.apache.kafka..")
            .because("kafka-clients' generated classes are the codec, confined to the wire adapter");

    @ArchTest
    static final ArchRule hotPathNeverImportsKubernetesOrGrpc = noClasses()
            .that().resideInAnyPackage("io.kaas.domain..", "io.kaas.application..", "io.kaas.adapter.wire..",
                    "io.kaas.adapter.fs..")
            .should().dependOnClassesThat().resideInAnyPackage("io.fabric8..", "io.javaoperatorsdk..",
                    "io.kaas.adapter.k8s..", "io.kaas.operator..", "io.grpc..", "io.kaas.adapter.heartbeat..")
            .because("produce and fetch must keep working with the API server and the controller unreachable");

    @ArchTest
    static final ArchRule coreHasNoFrameworks = noClasses().that().resideInAnyPackage("io.kaas.domain..", "io.kaas.application..")
            .should().dependOnClassesThat().resideInAnyPackage("io.netty..", "io.grpc..", "com.fasterxml..")
            .because("use cases are protocol- and format-agnostic; adapters translate");

    @ArchTest
    static final ArchRule onlyBootstrapSpeaksOpenTelemetry = noClasses().that().resideOutsideOfPackage("io.kaas.bootstrap..")
            .should().dependOnClassesThat().resideInAPackage("io.opentelemetry..")
            .because("metrics, spans and log correlation reach the SDK through ports (Tracer, LogLevels) and "
                    + "BrokerMetrics; the composition root alone knows OpenTelemetry");

    @ArchTest
    static final ArchRule adaptersDoNotKnowEachOther = slices().matching("io.kaas.adapter.(*)..")
            .should().notDependOnEachOther();

    @ArchTest
    static final ArchRule onion = onionArchitecture()
            .domainModels("io.kaas.domain..")
            .applicationServices("io.kaas.application..")
            .adapter("wire", "io.kaas.adapter.wire..")
            .adapter("fs", "io.kaas.adapter.fs..")
            .adapter("k8s", "io.kaas.adapter.k8s..")
            .adapter("heartbeat", "io.kaas.adapter.heartbeat..")
            .withOptionalLayers(true)
            .ignoreDependency(JavaClass.Predicates.resideInAPackage("io.kaas.bootstrap.."), DescribedPredicate.alwaysTrue())
            .ignoreDependency(JavaClass.Predicates.resideInAPackage("io.kaas.operator.."), DescribedPredicate.alwaysTrue())
            .because("bootstrap and operator, the two composition roots, are the only places adapters meet");

    @ArchTest
    static final ArchRule theOperatorComposesOnlyTheVolumeAndKubernetesAdapters = noClasses()
            .that().resideInAPackage("io.kaas.operator..")
            .should().dependOnClassesThat().resideInAnyPackage("io.kaas.adapter.wire..", "io.kaas.adapter.heartbeat..",
                    "io.kaas.bootstrap..", "io.netty..", "io.grpc..")
            .because("the operator writes the volume and talks to the API server; it serves no Kafka client and no broker");

    @ArchTest
    static final ArchRule nothingButTheOperatorUsesJavaOperatorSdk = noClasses()
            .that().resideOutsideOfPackage("io.kaas.operator..")
            .should().dependOnClassesThat().resideInAPackage("io.javaoperatorsdk..")
            .because("reconcilers live in the operator; brokers only read and write custom resources through fabric8");
}
