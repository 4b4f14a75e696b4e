package io.kaas.architecture;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import java.util.Set;
import java.util.TreeSet;

/** The violation fixtures ({@code io.kaas.architecture.fixtures}) and what a rule says about them. */
final class Fixtures {
    static final String ROOT = "io.kaas.architecture.fixtures";
    private static final JavaClasses CLASSES = new ClassFileImporter().importPackages(ROOT);

    private Fixtures() {
    }

    static EvaluationResult evaluate(ArchRule rule) {
        return rule.evaluate(CLASSES);
    }

    /** The fixture classes {@code rule} flags, as top-level class names relative to {@link #ROOT}. */
    static Set<String> flaggedBy(ArchRule rule) {
        Set<String> flagged = new TreeSet<>();
        evaluate(rule).handleViolations((objects, message) -> objects.forEach(o -> flagged.add(relative(origin(o)))),
                new Object[0]);
        return flagged;
    }

    /** All violation lines of {@code rule}, one string. */
    static String report(ArchRule rule) {
        return String.join("\n", evaluate(rule).getFailureReport().getDetails());
    }

    static String fixture(String relativeName) {
        return ROOT + "." + relativeName;
    }

    private static JavaClass origin(Object violating) {
        if (violating instanceof JavaAccess<?> access) {
            return access.getOriginOwner();
        }
        if (violating instanceof Dependency dependency) {
            return dependency.getOriginClass();
        }
        if (violating instanceof JavaClass clazz) {
            return clazz;
        }
        throw new IllegalStateException("unexpected violating object " + violating.getClass());
    }

    private static String relative(JavaClass clazz) {
        JavaClass topLevel = clazz;
        while (topLevel.getEnclosingClass().isPresent()) {
            topLevel = topLevel.getEnclosingClass().get();
        }
        return topLevel.getName().substring(ROOT.length() + 1);
    }
}
