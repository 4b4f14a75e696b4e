package io.kaas.adapter.k8s.crd;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The CRD YAML committed to the chart is what the types generate: crd-generator writes {@code target/crds} in
 * process-classes, before this runs, and the build fails on any difference, a file missing on either side included.
 */
class CrdYamlIsCurrentTest {
    private static final Path GENERATED = Path.of("target", "crds");
    private static final Path COMMITTED = Path.of("..", "..", "helm", "kaas", "crds");
    private static final String REFRESH = "helm/kaas/crds/ is not what the io.kaas.adapter.k8s.crd types generate;"
            + " refresh it from the repository root with: mvn -B -q process-classes -pl adapters/k8s -am"
            + " && rm -f helm/kaas/crds/*.yml && cp adapters/k8s/target/crds/*.yml helm/kaas/crds/";

    @Test
    void theChartCarriesTheGeneratedCrdsUnchanged() throws IOException {
        List<String> generated = yamlFiles(GENERATED);
        assertThat(generated).as("the CRDs crd-generator wrote to %s", GENERATED.toAbsolutePath())
                .containsExactly("kafkaclusters.kaas.rs-v1.yml", "kafkatopics.kaas.rs-v1.yml", "kafkausers.kaas.rs-v1.yml");
        assertThat(yamlFiles(COMMITTED)).as(REFRESH).isEqualTo(generated);
        for (String name : generated) {
            assertThat(Files.readString(COMMITTED.resolve(name))).as(name + ": " + REFRESH)
                    .isEqualTo(Files.readString(GENERATED.resolve(name)));
        }
    }

    private static List<String> yamlFiles(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(file -> file.getFileName().toString()).filter(name -> name.endsWith(".yml")).sorted().toList();
        }
    }
}
