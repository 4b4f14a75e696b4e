package io.kaas.adapter.k8s.crd;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.List;
import java.util.Map;

/** What the operator made of a {@link KafkaTopic}. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class KafkaTopicStatus {
    @JsonPropertyDescription("The topic's id (KIP-516): a v4 UUID minted on the first reconcile and never rotated; "
            + "a KafkaTopic created again under the same name gets a new one. .topic-id.json in the "
            + "topic's directory carries it in Kafka's base64 form.")
    private String topicId;

    @JsonPropertyDescription("Ready, with the generation it describes.")
    private List<Condition> conditions;

    @JsonPropertyDescription("The pool volume of each partition, by partition index; decided when the partition is "
            + "created and never moved by a binding change.")
    private Map<String, String> volumeAssignments;

    @JsonPropertyDescription("Partitions on a volume the current storage binding does not select (placement never "
            + "moves data).")
    private Integer partitionsOutsideSpec;

    public String getTopicId() {
        return topicId;
    }

    public void setTopicId(String topicId) {
        this.topicId = topicId;
    }

    public List<Condition> getConditions() {
        return conditions;
    }

    public void setConditions(List<Condition> conditions) {
        this.conditions = conditions;
    }

    public Map<String, String> getVolumeAssignments() {
        return volumeAssignments;
    }

    public void setVolumeAssignments(Map<String, String> volumeAssignments) {
        this.volumeAssignments = volumeAssignments;
    }

    public Integer getPartitionsOutsideSpec() {
        return partitionsOutsideSpec;
    }

    public void setPartitionsOutsideSpec(Integer partitionsOutsideSpec) {
        this.partitionsOutsideSpec = partitionsOutsideSpec;
    }
}
