package io.kaas.domain.quota;

/** The client quotas a broker enforces, named as Apache's quota types and their config keys. */
public enum QuotaType {
    /** {@code producer_byte_rate}: bytes of Produce requests per second. */
    PRODUCE("Produce"),
    /** {@code consumer_byte_rate}: bytes of Fetch responses per second. */
    FETCH("Fetch"),
    /** {@code request_percentage}: request handling time, in percent of one thread. */
    REQUEST("Request"),
    /** {@code controller_mutation_rate}: partitions created or deleted per second (KIP-599). */
    CONTROLLER_MUTATION("ControllerMutation"),
    /** {@code connection_creation_rate}: connections accepted from one IP per second (KIP-612). */
    CONNECTION_CREATION("ConnectionCreation");

    private final String apacheName;

    QuotaType(String apacheName) {
        this.apacheName = apacheName;
    }

    /** Apache's name of the quota type (its metrics group). */
    public String apacheName() {
        return apacheName;
    }
}
