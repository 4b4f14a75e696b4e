package io.kaas.dev.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class MergePatchTest {

    /** RFC 7386's own examples (appendix A). */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "{\"a\":\"b\"}            | {\"a\":\"c\"}             | {\"a\":\"c\"}",
            "{\"a\":\"b\"}            | {\"b\":\"c\"}             | {\"a\":\"b\",\"b\":\"c\"}",
            "{\"a\":\"b\"}            | {\"a\":null}              | {}",
            "{\"a\":\"b\",\"b\":\"c\"} | {\"a\":null}             | {\"b\":\"c\"}",
            "{\"a\":[\"b\"]}          | {\"a\":\"c\"}             | {\"a\":\"c\"}",
            "{\"a\":\"c\"}            | {\"a\":[\"b\"]}           | {\"a\":[\"b\"]}",
            "{\"a\":{\"b\":\"c\"}}    | {\"a\":{\"b\":\"d\",\"c\":null}} | {\"a\":{\"b\":\"d\"}}",
            "{\"a\":[{\"b\":\"c\"}]}  | {\"a\":[1]}               | {\"a\":[1]}",
            "[\"a\",\"b\"]            | [\"c\",\"d\"]             | [\"c\",\"d\"]",
            "{\"a\":\"b\"}            | [\"c\"]                   | [\"c\"]",
            "{\"e\":null}             | {\"a\":1}                 | {\"e\":null,\"a\":1}",
            "[1,2]                    | {\"a\":\"b\",\"c\":null}  | {\"a\":\"b\"}",
            "{}                       | {\"a\":{\"bb\":{\"ccc\":null}}} | {\"a\":{\"bb\":{}}}",
    })
    void followsRfc7386(String target, String patch, String expected) {
        assertThat(MergePatch.apply(json(target), json(patch))).isEqualTo(json(expected));
    }

    @Test
    void leavesItsArgumentsAlone() {
        JsonNode target = json("{\"a\":{\"b\":1}}");
        JsonNode patch = json("{\"a\":{\"b\":null}}");
        MergePatch.apply(target, patch);
        assertThat(target).isEqualTo(json("{\"a\":{\"b\":1}}"));
        assertThat(patch).isEqualTo(json("{\"a\":{\"b\":null}}"));
    }

    @Test
    void aStrategicPatchLosesItsDirectivesAndDeletesWhatItMarks() {
        JsonNode strategic = json("""
                {"$setElementOrder/containers": [{"name": "a"}],
                 "metadata": {"labels": {"x": null}, "annotations": {"$patch": "delete"}},
                 "spec": {"$retainKeys": ["type"], "type": "Recreate",
                          "containers": [{"name": "a", "image": "i:2"}, {"name": "b", "$patch": "delete"}]}}
                """);
        assertThat(MergePatch.fromStrategic(strategic)).isEqualTo(json("""
                {"metadata": {"labels": {"x": null}, "annotations": null},
                 "spec": {"type": "Recreate", "containers": [{"name": "a", "image": "i:2"}]}}
                """));
    }

    private static JsonNode json(String text) {
        return Json.read(text.getBytes(StandardCharsets.UTF_8));
    }
}
