package io.kaas.dev.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ColumnPathTest {
    private static final JsonNode TOPIC = Json.read(("""
            {"metadata": {"name": "orders", "labels": {"app.kubernetes.io/name": "kaas"}},
             "spec": {"partitions": 12, "storage": {"volumes": ["premium", "bulk"]}},
             "status": {"conditions": [
                 {"type": "Initialized", "status": "True", "observedGeneration": 1},
                 {"type": "Ready", "status": "False", "reason": "InvalidVolumeBinding", "observedGeneration": 2}]}}
            """).getBytes(StandardCharsets.UTF_8));

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            ".spec.partitions                                   | 12",
            "{.spec.partitions}                                 | 12",
            "spec.partitions                                    | 12",
            ".spec.storage.volumes[0]                           | premium",
            ".spec.storage.volumes[-1]                          | bulk",
            ".spec.storage.volumes[*]                           | premium,bulk",
            ".spec.storage['volumes'][1]                        | bulk",
            ".metadata.labels.app\\.kubernetes\\.io/name        | kaas",
            ".status.conditions[?(@.type==\"Ready\")].status    | False",
            ".status.conditions[?(@.type=='Ready')].reason      | InvalidVolumeBinding",
            ".status.conditions[?(@.type != \"Ready\")].type    | Initialized",
            ".status.conditions[?(@.observedGeneration==2)].type | Ready",
            ".status.conditions[?(@.reason)].type               | Ready",
            ".status.conditions[*].type                         | Initialized,Ready",
    })
    void reachesWhatThePathNames(String path, String expected) {
        List<String> values = ColumnPath.parse(path).evaluate(TOPIC).stream().map(JsonNode::asText).toList();
        assertThat(String.join(",", values)).isEqualTo(expected);
    }

    @Test
    void aPathThatReachesNothingYieldsNothing() {
        assertThat(ColumnPath.parse(".status.topicId").evaluate(TOPIC)).isEmpty();
        assertThat(ColumnPath.parse(".spec.partitions.x").evaluate(TOPIC)).isEmpty();
        assertThat(ColumnPath.parse(".spec.storage.volumes[5]").evaluate(TOPIC)).isEmpty();
        assertThat(ColumnPath.parse(".status.conditions[?(@.type==\"Gone\")].status").evaluate(TOPIC)).isEmpty();
    }

    @Test
    void whatIsNotASimplePathIsRefusedWhenParsed() {
        assertThatThrownBy(() -> ColumnPath.parse("..name")).hasMessageContaining("recursive descent");
        assertThatThrownBy(() -> ColumnPath.parse(".spec[1:2]")).hasMessageContaining("unsupported subscript");
        assertThatThrownBy(() -> ColumnPath.parse(".spec[0")).hasMessageContaining("unclosed");
        assertThatThrownBy(() -> ColumnPath.parse(".a[?(x==1)]")).hasMessageContaining("must test @");
    }
}
