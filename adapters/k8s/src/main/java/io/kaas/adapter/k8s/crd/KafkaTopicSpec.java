package io.kaas.adapter.k8s.crd;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.crd.generator.annotation.PrinterColumn;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;

/** What a {@link KafkaTopic} asks for. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class KafkaTopicSpec {
    @PrinterColumn(name = "Partitions")
    @Required
    @Min(1)
    @JsonPropertyDescription("Number of partitions. Partitions only grow: a decrease is refused (Ready=False) and "
            + "nothing on the volume changes.")
    private Integer partitions;

    @Pattern("^[a-zA-Z0-9._-]{1,249}$")
    @JsonPropertyDescription("The Kafka topic name, when it is not a valid Kubernetes name (upper case, '_', longer"
            + " than 63); unset means metadata.name.")
    private String topicName;

    @JsonPropertyDescription("Per-topic configuration, one field per Kafka topic config (camelCase); unset fields "
            + "take the broker default.")
    private KafkaTopicConfig config;

    @JsonPropertyDescription("Which pool volumes (log dirs) hold the topic's partitions; unset means the default "
            + "set.")
    private TopicStorage storage;

    public Integer getPartitions() {
        return partitions;
    }

    public void setPartitions(Integer partitions) {
        this.partitions = partitions;
    }

    public String getTopicName() {
        return topicName;
    }

    public void setTopicName(String topicName) {
        this.topicName = topicName;
    }

    public KafkaTopicConfig getConfig() {
        return config;
    }

    public void setConfig(KafkaTopicConfig config) {
        this.config = config;
    }

    public TopicStorage getStorage() {
        return storage;
    }

    public void setStorage(TopicStorage storage) {
        this.storage = storage;
    }
}
