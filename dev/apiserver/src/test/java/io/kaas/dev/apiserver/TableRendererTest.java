package io.kaas.dev.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

class TableRendererTest {
    private static final Clock NOW = Clock.fixed(Instant.parse("2024-10-01T12:00:00Z"), ZoneOffset.UTC);
    private static final List<PrinterColumn> COLUMNS = List.of(
            PrinterColumn.of("Partitions", "integer", ".spec.partitions"),
            PrinterColumn.of("Ready", "string", ".status.conditions[?(@.type==\"Ready\")].status"),
            PrinterColumn.of("Volumes", "string", ".spec.storage.volumes"),
            PrinterColumn.of("Compacted", "boolean", ".spec.compacted"),
            PrinterColumn.of("Mistyped", "integer", ".metadata.name"),
            new PrinterColumn("Topic ID", "string", "", "", 1, ColumnPath.parse(".status.topicId")),
            PrinterColumn.age());
    private static final JsonNode TOPIC = json("""
            {"apiVersion": "kaas.rs/v1alpha1", "kind": "KafkaTopic",
             "metadata": {"name": "orders", "namespace": "kafka", "creationTimestamp": "2024-10-01T11:54:30Z",
                          "resourceVersion": "7"},
             "spec": {"partitions": 12, "compacted": true, "storage": {"volumes": ["premium", "bulk"]}},
             "status": {"conditions": [{"type": "Ready", "status": "True"}]}}
            """);

    private final TableRenderer renderer = new TableRenderer(NOW);

    @Test
    void aRowPerObjectWithTypedCellsAfterTheName() {
        ObjectNode table = renderer.render("v1", List.of(TOPIC), COLUMNS, TableRenderer.IncludeObject.NONE, "9");

        assertThat(table.get("kind").asText()).isEqualTo("Table");
        assertThat(table.get("apiVersion").asText()).isEqualTo("meta.k8s.io/v1");
        assertThat(table.at("/metadata/resourceVersion").asText()).isEqualTo("9");
        assertThat(table.get("columnDefinitions").findValuesAsText("name")).containsExactly("Name", "Partitions",
                "Ready", "Volumes", "Compacted", "Mistyped", "Topic ID", "Age");
        assertThat(table.at("/columnDefinitions/0/format").asText()).isEqualTo("name");
        assertThat(table.at("/columnDefinitions/6/priority").asInt()).isEqualTo(1);
        assertThat(Json.write(table.at("/rows/0/cells")))
                .isEqualTo("[\"orders\",12,\"True\",\"[\\\"premium\\\",\\\"bulk\\\"]\",true,null,null,\"5m30s\"]");
        assertThat(table.at("/rows/0").has("object")).isFalse();
    }

    @Test
    void rowsCarryTheMetadataByDefaultOrTheObjectWhenAsked() {
        ObjectNode partial = renderer.render("v1beta1", List.of(TOPIC), COLUMNS,
                TableRenderer.IncludeObject.of(null), "9");
        assertThat(partial.at("/rows/0/object")).isEqualTo(json("""
                {"kind": "PartialObjectMetadata", "apiVersion": "meta.k8s.io/v1beta1",
                 "metadata": {"name": "orders", "namespace": "kafka", "creationTimestamp": "2024-10-01T11:54:30Z",
                              "resourceVersion": "7"}}"""));

        ObjectNode whole = renderer.render("v1", List.of(TOPIC), COLUMNS,
                TableRenderer.IncludeObject.of("Object"), "9");
        assertThat(whole.at("/rows/0/object")).isEqualTo(TOPIC);
    }

    @Test
    void readsTheTableVersionKubectlAsksFor() {
        assertThat(TableRenderer.requestedVersion("application/json;as=Table;v=v1;g=meta.k8s.io,"
                + "application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json")).isEqualTo("v1");
        assertThat(TableRenderer.requestedVersion("application/json;as=Table;v=v1beta1;g=meta.k8s.io"))
                .isEqualTo("v1beta1");
        assertThat(TableRenderer.requestedVersion("application/json")).isNull();
        assertThat(TableRenderer.requestedVersion("application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io"))
                .isNull();
        assertThat(TableRenderer.requestedVersion(null)).isNull();
    }

    private static JsonNode json(String text) {
        return Json.read(text.getBytes(StandardCharsets.UTF_8));
    }
}
