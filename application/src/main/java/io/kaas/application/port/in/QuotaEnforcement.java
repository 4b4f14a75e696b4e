package io.kaas.application.port.in;

/**
 * Client quotas as the wire charges them (KIP-13, KIP-124): each call records what one request of a client
 * ({@code user}, the principal's name, and the header's {@code clientId}) used and answers how long the client is
 * throttled for it, in milliseconds (0: within its quota or without one). A throttled client gets the time in the
 * response's {@code throttle_time_ms} and its connection is not read for that long (KIP-219). Safe from any thread;
 * cheap enough for an event loop.
 */
public interface QuotaEnforcement {
    /** No quotas: nothing is recorded or throttled. */
    QuotaEnforcement NONE = new QuotaEnforcement() {
        @Override
        public int produce(String user, String clientId, long requestBytes) {
            return 0;
        }

        @Override
        public int fetchMaxBytes(String user, String clientId) {
            return Integer.MAX_VALUE;
        }

        @Override
        public int fetch(String user, String clientId, long responseBytes) {
            return 0;
        }

        @Override
        public int request(String user, String clientId, long handlerNanos) {
            return 0;
        }

        @Override
        public MutationQuota controllerMutation(String user, String clientId, boolean strict) {
            return MutationQuota.UNBOUNDED;
        }

        @Override
        public int connectionCreation(String ip) {
            return 0;
        }
    };

    /** {@code producer_byte_rate}: charges a Produce request's size. */
    int produce(String user, String clientId, long requestBytes);

    /** The most one Fetch answer may carry for the client's {@code consumer_byte_rate} (Apache's cap). */
    int fetchMaxBytes(String user, String clientId);

    /**
     * {@code consumer_byte_rate}: charges a Fetch answer's bytes, taking them back when that throttles the client,
     * since a throttled fetch is answered empty.
     */
    int fetch(String user, String clientId, long responseBytes);

    /** {@code request_percentage}: charges the time the broker's threads spent handling a request. */
    int request(String user, String clientId, long handlerNanos);

    /**
     * {@code controller_mutation_rate}: the quota one topic-mutating request charges as it goes.
     *
     * @param strict whether the request's version can carry THROTTLING_QUOTA_EXCEEDED (CreateTopics v6+,
     *               CreatePartitions v3+, DeleteTopics v5+): then topics over the quota are refused, else only throttled
     */
    MutationQuota controllerMutation(String user, String clientId, boolean strict);

    /**
     * {@code connection_creation_rate} (KIP-612): records a connection accepted from {@code ip} (its address literal)
     * and answers 0 to serve it, or how long to hold it unserved before closing it, in milliseconds.
     */
    int connectionCreation(String ip);
}
