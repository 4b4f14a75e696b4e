package io.kaas.adapter.k8s.crd;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Min;

/**
 * A user's quotas. Kafka enforces quotas per broker (KIP-13): with N brokers a client may reach N times
 * these rates, which is why the byte-rate fields say PerBroker where Strimzi says producerByteRate.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class UserQuotas {
    @Min(0)
    @JsonPropertyDescription("Bytes per second this user's producers may send to each broker.")
    private Long producerMaxByteRatePerBroker;

    @Min(0)
    @JsonPropertyDescription("Bytes per second this user's consumers may fetch from each broker.")
    private Long consumerMaxByteRatePerBroker;

    @Min(0)
    @JsonPropertyDescription("Share of each broker's request-handling time this user may take, in percent "
            + "(Apache's request_percentage, a double).")
    private Double requestPercentage;

    @Min(0)
    @JsonPropertyDescription("Partition mutations per second this user's CreateTopics, CreatePartitions and "
            + "DeleteTopics may make on each broker (Apache's controller_mutation_rate, KIP-599).")
    private Double controllerMutationRate;

    public Long getProducerMaxByteRatePerBroker() {
        return producerMaxByteRatePerBroker;
    }

    public void setProducerMaxByteRatePerBroker(Long producerMaxByteRatePerBroker) {
        this.producerMaxByteRatePerBroker = producerMaxByteRatePerBroker;
    }

    public Long getConsumerMaxByteRatePerBroker() {
        return consumerMaxByteRatePerBroker;
    }

    public void setConsumerMaxByteRatePerBroker(Long consumerMaxByteRatePerBroker) {
        this.consumerMaxByteRatePerBroker = consumerMaxByteRatePerBroker;
    }

    public Double getRequestPercentage() {
        return requestPercentage;
    }

    public void setRequestPercentage(Double requestPercentage) {
        this.requestPercentage = requestPercentage;
    }

    public Double getControllerMutationRate() {
        return controllerMutationRate;
    }

    public void setControllerMutationRate(Double controllerMutationRate) {
        this.controllerMutationRate = controllerMutationRate;
    }
}
