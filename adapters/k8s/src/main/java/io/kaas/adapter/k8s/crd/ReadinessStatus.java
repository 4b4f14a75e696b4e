package io.kaas.adapter.k8s.crd;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.List;

/**
 * What the operator made of a {@link KafkaUser} or a {@link KafkaCluster}: its Ready condition. (A KafkaTopic reports
 * more: {@link KafkaTopicStatus}.)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ReadinessStatus {
    @JsonPropertyDescription("Ready, with the generation it describes.")
    private List<Condition> conditions;

    public List<Condition> getConditions() {
        return conditions;
    }

    public void setConditions(List<Condition> conditions) {
        this.conditions = conditions;
    }
}
