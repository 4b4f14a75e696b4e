package io.kaas.adapter.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** {@code docs/api-matrix.md} must be exactly what the registry renders. */
class ApiMatrixTest {
    private static final Path MATRIX = Path.of("..", "..", "docs", "api-matrix.md");

    @Test
    void committedMatrixMatchesTheRegistry() throws IOException {
        String rendered = ApiMatrix.render(KafkaApis.registry(new UseCases(null, null, null, null, null, null, null, null, null, null, null,
                null, null, null, null, null, null, null)));
        if (Boolean.getBoolean("kaas.regenerate")) {
            Files.createDirectories(MATRIX.getParent());
            Files.writeString(MATRIX, rendered, StandardCharsets.UTF_8);
        }
        assertThat(MATRIX).as("docs/api-matrix.md (regenerate: see its header)").exists();
        assertThat(Files.readString(MATRIX, StandardCharsets.UTF_8))
                .as("docs/api-matrix.md drifted from the registry; regenerate it (see the file's header)")
                .isEqualTo(rendered);
    }
}
