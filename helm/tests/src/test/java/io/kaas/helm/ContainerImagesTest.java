package io.kaas.helm;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The image Dockerfiles agree with the build and the chart: each copies the jar its module's shade plugin writes,
 * the build context lets exactly those jars through, and each image runs as the user the chart's pods run as.
 * (No image is built here: that needs a container engine.)
 */
class ContainerImagesTest {
    private static final Path ROOT = Path.of("..", "..");
    private static final Pattern COPY = Pattern.compile("(?m)^COPY (\\S+) (\\S+)$");
    private static final Pattern USER = Pattern.compile("(?m)^USER (\\d+):(\\d+)$");
    private static final Pattern SHADED = Pattern.compile("<outputFile>\\$\\{project.build.directory}/([^<]+)</outputFile>");

    @Test
    void theBrokerImageRunsBootstrapsJarAsTheChartsUser() throws IOException {
        Dockerfile broker = Dockerfile.read("kaas.Dockerfile");
        StatefulSet set = Chart.withDefaults().render().get(StatefulSet.class, "kaas");

        assertThat(broker.copied()).isEqualTo("bootstrap/target/" + shadedJar("bootstrap/pom.xml"));
        assertThat(broker.copied()).isEqualTo("bootstrap/target/kaas.jar");
        assertThat(broker.entrypoint()).endsWith("\"-jar\", \"/opt/kaas/kaas.jar\"]");
        assertThat(broker.user()).isEqualTo(set.getSpec().getTemplate().getSpec().getSecurityContext().getRunAsUser());
    }

    @Test
    void theOperatorImageRunsTheOperatorsJarAsTheChartsUser() throws IOException {
        Dockerfile operator = Dockerfile.read("kaas-operator.Dockerfile");
        Deployment deployment = Chart.withDefaults().set("operator.enabled", true).render()
                .get(Deployment.class, "kaas-operator");

        assertThat(operator.copied()).isEqualTo("operator/target/" + shadedJar("operator/pom.xml"));
        assertThat(operator.copied()).isEqualTo("operator/target/kaas-operator.jar");
        assertThat(operator.entrypoint()).endsWith("\"-jar\", \"/opt/kaas/kaas-operator.jar\"]");
        assertThat(operator.user())
                .isEqualTo(deployment.getSpec().getTemplate().getSpec().getSecurityContext().getRunAsUser());
    }

    @Test
    void theBuildContextHoldsOnlyTheTwoJars() throws IOException {
        List<String> rules = Files.readAllLines(ROOT.resolve(".dockerignore")).stream()
                .filter(line -> !line.isBlank() && !line.startsWith("#")).toList();

        assertThat(rules).containsExactly("*", "!bootstrap/target/kaas.jar", "!operator/target/kaas-operator.jar");
    }

    private static String shadedJar(String pom) throws IOException {
        Matcher shaded = SHADED.matcher(Files.readString(ROOT.resolve(pom)));
        assertThat(shaded.find()).as("%s shades a runnable jar", pom).isTrue();
        return shaded.group(1);
    }

    /** What a Dockerfile copies, runs and runs as. */
    private record Dockerfile(String copied, String entrypoint, long user) {

        static Dockerfile read(String name) throws IOException {
            String text = Files.readString(ROOT.resolve("docker").resolve(name));
            Matcher copy = COPY.matcher(text);
            Matcher user = USER.matcher(text);
            assertThat(copy.find()).as("%s copies the jar", name).isTrue();
            String copied = copy.group(1);
            assertThat(copy.find()).as("%s copies one file", name).isFalse();
            assertThat(user.find()).as("%s names a numeric USER", name).isTrue();
            assertThat(user.group(2)).as("%s: group 0, as the chart's runAsGroup", name).isEqualTo("0");
            String entrypoint = text.lines().filter(line -> line.startsWith("ENTRYPOINT ")).findFirst()
                    .orElseThrow(() -> new AssertionError(name + " has no ENTRYPOINT"));
            return new Dockerfile(copied, entrypoint, Long.parseLong(user.group(1)));
        }
    }
}
