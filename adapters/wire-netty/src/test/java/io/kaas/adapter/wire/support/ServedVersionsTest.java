package io.kaas.adapter.wire.support;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.stream.Stream;
import org.apache.kafka.common.protocol.ApiKeys;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.AnnotationBasedArgumentsProvider;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.ArgumentsSource;
import org.junit.jupiter.params.support.ParameterDeclarations;

/**
 * A test run once per version of {@link #value()} that the real registry serves (see
 * {@link ServedVersions}), optionally narrowed to {@code [from, below)}: the versions that have the
 * field or feature under test. The method takes the version as its {@code short} parameter.
 *
 * <pre>{@code
 * @ServedVersionsTest(value = ApiKeys.FETCH, from = 13) // topic ids
 * void fetchesByTopicId(short version) { ... }
 * }</pre>
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@ParameterizedTest(name = "v{0}")
@ArgumentsSource(ServedVersionsTest.Provider.class)
public @interface ServedVersionsTest {
    /** The API whose served versions the test runs at. */
    ApiKeys value();

    /** The lowest version to run at. */
    int from() default 0;

    /** The first version not to run at. */
    int below() default Integer.MAX_VALUE;

    /** The versions, for JUnit. */
    final class Provider extends AnnotationBasedArgumentsProvider<ServedVersionsTest> {
        @Override
        protected Stream<? extends Arguments> provideArguments(ParameterDeclarations parameters,
                                                               ExtensionContext context, ServedVersionsTest test) {
            return ServedVersions.of(test.value())
                    .filter(v -> v >= test.from() && v < test.below())
                    .map(Arguments::of);
        }
    }
}
