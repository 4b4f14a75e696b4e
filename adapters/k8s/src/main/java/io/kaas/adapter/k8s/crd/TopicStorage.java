package io.kaas.adapter.k8s.crd;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.ValidationRule;
import java.util.List;
import java.util.Map;

/** A topic's binding to volumes of the pool: named ({@code volumes}) or selected by label ({@code volumeSelector}). */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = "!(has(self.volumes) && has(self.volumeSelector))",
        message = "volumes and volumeSelector are mutually exclusive")
public class TopicStorage {
    @JsonPropertyDescription("Pool volumes new partitions are placed on, round-robin: one pins the topic, several "
            + "stripe it. Excludes volumeSelector.")
    private List<String> volumes;

    @JsonPropertyDescription("Pool volumes whose labels carry every key and value given here. Excludes volumes.")
    private Map<String, String> volumeSelector;

    public List<String> getVolumes() {
        return volumes;
    }

    public void setVolumes(List<String> volumes) {
        this.volumes = volumes;
    }

    public Map<String, String> getVolumeSelector() {
        return volumeSelector;
    }

    public void setVolumeSelector(Map<String, String> volumeSelector) {
        this.volumeSelector = volumeSelector;
    }
}
