package io.kaas.architecture;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackages;
import static com.tngtech.archunit.core.domain.properties.HasName.Predicates.nameMatching;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.AccessTarget.CodeUnitAccessTarget;
import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.lang.ArchRule;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The rules that need a violation fixture to be trusted, built for a root package: {@code io.kaas}
 * for the real code, {@code io.kaas.architecture.fixtures} for the fixtures that prove each rule fires.
 * Both are laid out alike ({@code <root>.domain}, {@code <root>.application.port.in}, {@code <root>.adapter.wire}),
 * so the fixtures exercise the same package selection as the real check.
 *
 * <p>Access rules match on {@link JavaAccess}, which covers calls, field accesses and method and
 * constructor references ({@code System::currentTimeMillis}, {@code Random::new}); a
 * {@code callMethod} rule sees calls only.
 */
final class KaasRules {
    /** The root of the real code. */
    static final String KAAS = "io.kaas";

    private KaasRules() {
    }

    /** Domain and application read no clock and do not sleep: time comes from the {@code Clock} and {@code Scheduler} ports. */
    static ArchRule noClockOrSleepInTheCore(String root) {
        return noClasses().that().resideInAnyPackage(root + ".domain..", root + ".application..")
                .should().accessTargetWhere(CLOCK_OR_SLEEP)
                .because("the Clock and Scheduler ports are the only sources of time, so tests drive it by hand");
    }

    /** Domain and application draw no unseeded random numbers or ids: they come in as parameters or through a port. */
    static ArchRule noRandomnessInTheCore(String root) {
        return noClasses().that().resideInAnyPackage(root + ".domain..", root + ".application..")
                .should().accessTargetWhere(UNSEEDED_RANDOMNESS)
                .because("a test or a simulation replays the core only if every random choice is injected");
    }

    /**
     * The application touches files only through the {@code Filesystem} port (which the fault-injecting
     * simulation replaces); the port itself names the types its adapter works with.
     */
    static ArchRule applicationDoesFileIoOnlyThroughTheFilesystemPort(String root) {
        String port = root + ".application.port.out.Filesystem";
        return noClasses().that().resideInAPackage(root + ".application..")
                .and().doNotHaveFullyQualifiedName(port)
                .and().haveNameNotMatching(Pattern.quote(port) + "\\$.*")
                .should().dependOnClassesThat().haveFullyQualifiedName("java.nio.file.Files")
                .orShould().dependOnClassesThat().haveFullyQualifiedName("java.nio.file.FileSystems")
                .orShould().dependOnClassesThat().resideInAPackage("java.nio.file.spi")
                .orShould().dependOnClassesThat().haveFullyQualifiedName("java.nio.channels.FileChannel")
                .orShould().dependOnClassesThat().haveFullyQualifiedName("java.nio.channels.AsynchronousFileChannel")
                .orShould().dependOnClassesThat().haveFullyQualifiedName("java.io.File")
                .orShould().dependOnClassesThat().haveFullyQualifiedName("java.io.FileInputStream")
                .orShould().dependOnClassesThat().haveFullyQualifiedName("java.io.FileOutputStream")
                .orShould().dependOnClassesThat().haveFullyQualifiedName("java.io.FileReader")
                .orShould().dependOnClassesThat().haveFullyQualifiedName("java.io.FileWriter")
                .orShould().dependOnClassesThat().haveFullyQualifiedName("java.io.RandomAccessFile")
                .because("file I/O goes through the Filesystem port, so the seeded fault-injecting filesystem sees all of it");
    }

    /**
     * Within kaas, the wire adapter depends only on the use cases ({@code application.port.in}), the
     * domain and itself: no service, storage-engine or other application type, no other adapter. One
     * family of driven ports is the wire's to implement, the record readers {@code port.out.BatchRecordSearch},
     * {@code CompactionRecords} and {@code RecordKeys}: reading a batch's
     * records takes kafka-clients' decompressors, which only the wire may import.
     */
    static ArchRule wireDependsOnlyOnPortInAndDomain(String root) {
        String recordReaders = Pattern.quote(root + ".application.port.out.") + "(BatchRecordSearch|CompactionRecords|RecordKeys)";
        return noClasses().that().resideInAPackage(root + ".adapter.wire..")
                .should().dependOnClassesThat(resideInAPackage(root + "..").and(resideOutsideOfPackages(
                        root + ".adapter.wire..", root + ".application.port.in..", root + ".domain.."))
                        .and(DescribedPredicate.not(nameMatching(recordReaders + "(\\$.*)?"))))
                .because("the wire maps Kafka messages to use cases; it must not reach around them into services or storage");
    }

    /** Reading a system clock, or sleeping, by call or by method reference. */
    static final DescribedPredicate<JavaAccess<?>> CLOCK_OR_SLEEP = anyOf("a system clock or a sleep", List.of(
            member("java.lang.System", "currentTimeMillis"),
            member("java.lang.System", "nanoTime"),
            member("java.lang.Thread", "sleep"),
            member("java.util.concurrent.TimeUnit", "sleep"),
            member("java.time.Clock", "system"),
            member("java.time.Clock", "systemUTC"),
            member("java.time.Clock", "systemDefaultZone"),
            member("java.time.InstantSource", "system"),
            member("java.time.Instant", "now"),
            member("java.time.LocalDateTime", "now"),
            member("java.time.LocalDate", "now"),
            member("java.time.LocalTime", "now"),
            member("java.time.ZonedDateTime", "now"),
            member("java.time.OffsetDateTime", "now"),
            member("java.time.OffsetTime", "now"),
            member("java.time.Year", "now"),
            member("java.time.YearMonth", "now"),
            member("java.time.MonthDay", "now")));

    /** Randomness nobody seeded, by call, constructor call or reference. Seeded generators ({@code new Random(seed)}) are fine. */
    static final DescribedPredicate<JavaAccess<?>> UNSEEDED_RANDOMNESS = anyOf("an unseeded source of randomness", List.of(
            noArgConstructor("java.util.Random"),
            noArgConstructor("java.util.SplittableRandom"),
            member("java.security.SecureRandom", "<init>"),
            member("java.security.SecureRandom", "getInstance"),
            member("java.security.SecureRandom", "getInstanceStrong"),
            member("java.lang.Math", "random"),
            member("java.lang.StrictMath", "random"),
            member("java.util.concurrent.ThreadLocalRandom", "current"),
            member("java.util.UUID", "randomUUID"),
            DescribedPredicate.describe("java.util.Collections.shuffle(List)", access -> isTarget(access,
                    "java.util.Collections", "shuffle") && parameterCount(access) == 1)));

    private static DescribedPredicate<JavaAccess<?>> member(String owner, String name) {
        String shown = name.equals("<init>") ? "new " + owner + "(..)" : owner + "." + name;
        return DescribedPredicate.describe(shown, access -> isTarget(access, owner, name));
    }

    private static DescribedPredicate<JavaAccess<?>> noArgConstructor(String owner) {
        return DescribedPredicate.describe("new " + owner + "()",
                access -> isTarget(access, owner, "<init>") && parameterCount(access) == 0);
    }

    private static boolean isTarget(JavaAccess<?> access, String owner, String name) {
        return access.getTargetOwner().getFullName().equals(owner) && access.getName().equals(name);
    }

    private static int parameterCount(JavaAccess<?> access) {
        return access.getTarget() instanceof CodeUnitAccessTarget codeUnit ? codeUnit.getRawParameterTypes().size() : -1;
    }

    private static DescribedPredicate<JavaAccess<?>> anyOf(String summary, List<DescribedPredicate<JavaAccess<?>>> members) {
        DescribedPredicate<JavaAccess<?>> any = DescribedPredicate.or(members);
        String names = Arrays.toString(members.stream().map(DescribedPredicate::getDescription).toArray());
        return DescribedPredicate.describe(summary + " " + names, any);
    }
}
