package io.kaas.helm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * docs/helm-values.md is what values.yaml's comments generate ({@link ValuesReference}), and every key of values.yaml
 * has one. The page is written to target/helm-values.md first, so a failure leaves the fresh copy to take.
 */
class HelmValuesReferenceIsCurrentTest {
    private static final Path VALUES = Chart.DIR.resolve("values.yaml");
    private static final Path GENERATED = Path.of("target", "helm-values.md");
    private static final Path COMMITTED = Path.of("..", "..", "docs", "helm-values.md");
    private static final String REFRESH = "docs/helm-values.md is not what helm/kaas/values.yaml generates; refresh it"
            + " from the repository root with: mvn -B -q test -pl helm/tests -Dtest=HelmValuesReferenceIsCurrentTest;"
            + " cp helm/tests/target/helm-values.md docs/helm-values.md";

    @Test
    void everyKeyOfValuesYamlIsDocumented() throws IOException {
        ValuesReference reference = ValuesReference.of(Files.readString(VALUES));

        assertThat(reference.problems()).as("values.yaml keys without a \"# --\" description").isEmpty();
        assertThat(reference.keys()).extracting(ValuesReference.Key::path)
                .contains("image.repository", "broker.replicaCount", "broker.controllerLease.durationSeconds",
                        "listeners", "storage.pool", "operator.image.tag", "podDisruptionBudget.maxUnavailable");
    }

    @Test
    void theCommittedReferenceIsWhatValuesYamlGenerates() throws IOException {
        String generated = ValuesReference.of(Files.readString(VALUES)).markdown();
        Files.createDirectories(GENERATED.getParent());
        Files.writeString(GENERATED, generated);

        assertThat(COMMITTED).as(REFRESH).exists();
        assertThat(Files.readString(COMMITTED)).as(REFRESH).isEqualTo(generated);
    }

    @Test
    void anUndocumentedKeyAndAStrayDescriptionAreReported() throws IOException {
        ValuesReference reference = ValuesReference.of("""
                # -- A section.
                section:
                  # -- Documented.
                  documented: 1
                  undocumented: 2
                # -- Free-form: the keys inside need no comment.
                resources:
                  limits:
                    memory: 1Gi
                # -- A list.
                items:
                  - name: a
                    # -- On a list item's key, which the reference cannot show.
                    port: 1
                """);

        assertThat(reference.problems()).containsExactly(
                "section.undocumented: no \"# --\" comment above it in values.yaml",
                "items.port: a \"# --\" comment on no documented key (inside a list or a free-form map?)");
        assertThat(reference.keys()).extracting(ValuesReference.Key::path, ValuesReference.Key::section)
                .containsExactly(tuple("section", true),
                        tuple("section.documented", false),
                        tuple("resources", false),
                        tuple("items", false));
    }
}
