package io.kaas.application.port.in;

import io.kaas.domain.error.KafkaError;

/**
 * One CreateTopics, CreatePartitions or DeleteTopics request's view of its client's {@code controller_mutation_rate}
 * (KIP-599): each topic's partitions are charged just before it is mutated. A strict quota (the request versions
 * that can carry THROTTLING_QUOTA_EXCEEDED) refuses a topic once the client's credits are gone, charging nothing;
 * a permissive one (older versions) admits every topic and only throttles. Safe from any thread.
 */
public interface MutationQuota {
    /** Apache's answer for a topic a strict quota refused. */
    Outcome EXCEEDED = new Outcome(KafkaError.THROTTLING_QUOTA_EXCEEDED, "The throttling quota has been exceeded.");

    /** No quota: everything is admitted, nothing throttled. */
    MutationQuota UNBOUNDED = new MutationQuota() {
        @Override
        public boolean tryCharge(int partitions) {
            return true;
        }

        @Override
        public int throttleTimeMs() {
            return 0;
        }
    };

    /**
     * Charges the mutation of {@code partitions} partitions.
     *
     * @return false when a strict quota refuses it (then nothing is charged, and the topic gets {@link #EXCEEDED})
     */
    boolean tryCharge(int partitions);

    /**
     * The request's throttle time: that of its last violation less the time since, as the response is sent late
     * (Apache's {@code ControllerMutationQuota.throttleTime}); 0 without one.
     */
    int throttleTimeMs();
}
