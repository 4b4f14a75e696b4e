package io.kaas.domain.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * {@code docs/topic-configs.md} is rendered from the key table, so the book says exactly what the
 * broker applies. Regenerate with
 * {@code mvn -B -q -pl domain test -Dtest=TopicConfigDocsTest -Dkaas.regenerate=true}.
 */
class TopicConfigDocsTest {
    private static final Path PAGE = Path.of("..", "docs", "topic-configs.md");

    @Test
    void committedPageMatchesTheTable() throws IOException {
        String rendered = render();
        if (Boolean.getBoolean("kaas.regenerate")) {
            Files.writeString(PAGE, rendered, StandardCharsets.UTF_8);
        }
        assertThat(PAGE).as("docs/topic-configs.md (regenerate: see this test's javadoc)").exists();
        assertThat(Files.readString(PAGE, StandardCharsets.UTF_8))
                .as("docs/topic-configs.md drifted from TopicConfigKeys; regenerate it").isEqualTo(rendered);
    }

    static String render() {
        StringBuilder md = new StringBuilder();
        md.append("# Topic configuration\n\n")
                .append("Generated from the key table (`domain/src/main/java/io/kaas/domain/config/TopicConfigKeys.java`);\n")
                .append("`TopicConfigDocsTest` fails when this page drifts from it.\n\n")
                .append("kaas accepts, validates, stores and reports every topic-level key of Apache Kafka 3.7, with Apache's\n")
                .append("types, defaults, valid values and error messages (INVALID_CONFIG). A topic's overrides live in its\n")
                .append("`.config.json`; a change takes effect without a restart, at the partition's next append, segment roll\n")
                .append("or retention sweep. A key without an override takes its default from the broker setting named in the\n")
                .append("last column, which kaas sets from its environment (see [operations](operations.md)).\n\n")
                .append("**kaas** says whether kaas acts on a key: *enforced*, *partial* (the description says which part), or\n")
                .append("*inert* (accepted and reported without effect; the description says why).\n\n")
                .append("| key | type | default | valid values | kaas | what it does | broker default |\n")
                .append("|---|---|---|---|---|---|---|\n");
        for (String name : TopicConfigKeys.sortedNames()) {
            TopicConfigKey key = TopicConfigKeys.require(name);
            md.append("| `").append(name).append("` | ").append(key.type().name().toLowerCase(Locale.ROOT))
                    .append(" | ").append(cell(key.defaultValue()))
                    .append(" | ").append(key.validValues().isEmpty() ? "" : "`" + key.validValues() + "`")
                    .append(" | ").append(key.support().name().toLowerCase(Locale.ROOT))
                    .append(" | ").append(key.documentation().replace("|", "\\|"))
                    .append(" | ").append(key.brokerDefaultKey().map(b -> "`" + b + "`").orElse("—"))
                    .append(" |\n");
        }
        return md.toString();
    }

    private static String cell(String value) {
        return value.isEmpty() ? "(empty)" : "`" + value + "`";
    }
}
