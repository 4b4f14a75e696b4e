package io.kaas.adapter.k8s.user;

import io.kaas.domain.security.UserQuotas;

/**
 * A KafkaUser's {@code spec.quotas} and Apache's quota names, both ways: {@code producerMaxByteRatePerBroker} is
 * {@code producer_byte_rate}, {@code consumerMaxByteRatePerBroker} is {@code consumer_byte_rate}, and
 * {@code requestPercentage} and {@code controllerMutationRate} are Apache's names in camel case. The operator reads
 * them into {@code credentials.json}; AlterClientQuotas in a cluster writes them back.
 */
public final class UserQuotaFields {
    private UserQuotaFields() {
    }

    /** The quotas a spec holds; none for a missing {@code spec.quotas}. */
    public static UserQuotas quotas(io.kaas.adapter.k8s.crd.UserQuotas fields) {
        if (fields == null) {
            return UserQuotas.NONE;
        }
        return new UserQuotas(fields.getProducerMaxByteRatePerBroker(), fields.getConsumerMaxByteRatePerBroker(),
                fields.getRequestPercentage(), fields.getControllerMutationRate());
    }

    /** The {@code spec.quotas} holding {@code quotas}; null (the field omitted) when there are none. */
    public static io.kaas.adapter.k8s.crd.UserQuotas fields(UserQuotas quotas) {
        if (quotas.isEmpty()) {
            return null;
        }
        io.kaas.adapter.k8s.crd.UserQuotas fields = new io.kaas.adapter.k8s.crd.UserQuotas();
        fields.setProducerMaxByteRatePerBroker(quotas.producerByteRate());
        fields.setConsumerMaxByteRatePerBroker(quotas.consumerByteRate());
        fields.setRequestPercentage(quotas.requestPercentage());
        fields.setControllerMutationRate(quotas.controllerMutationRate());
        return fields;
    }
}
