package io.kaas.adapter.wire.dispatch;

import io.kaas.application.port.in.QuotaEnforcement;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.kafka.common.message.ApiVersionsResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.ApiVersionsRequest;
import org.apache.kafka.common.requests.ApiVersionsResponse;

/**
 * The served API surface: for each key, the version range and its handler. It is the single source
 * of the ApiVersions response and of {@code docs/api-matrix.md}; a request outside it is never
 * handed to a handler.
 */
public final class ApiRegistry {
    private final Map<ApiKeys, Entry<?>> entries;
    private final QuotaEnforcement quotas;

    private ApiRegistry(Map<ApiKeys, Entry<?>> entries, QuotaEnforcement quotas) {
        this.entries = entries;
        this.quotas = quotas;
    }

    public static Builder builder() {
        return new Builder();
    }

    public boolean serves(ApiKeys key, short version) {
        Entry<?> entry = entries.get(key);
        return entry != null && version >= entry.minVersion && version <= entry.maxVersion;
    }

    /** Served keys in key order, with their version ranges. */
    public Map<ApiKeys, Entry<?>> entries() {
        return entries;
    }

    /** Passes a served request to its handler. */
    @SuppressWarnings("unchecked")
    public CompletionStage<? extends AbstractResponse> handle(RequestContext context, AbstractRequest request) {
        Entry<AbstractRequest> entry = (Entry<AbstractRequest>) entries.get(request.apiKey());
        return entry.handler.handle(context, request);
    }

    /** The api_keys of an ApiVersions response. */
    public ApiVersionsResponseData.ApiVersionCollection apiVersions() {
        ApiVersionsResponseData.ApiVersionCollection keys = new ApiVersionsResponseData.ApiVersionCollection();
        for (Entry<?> e : entries.values()) {
            keys.add(new ApiVersionsResponseData.ApiVersion()
                    .setApiKey(e.key.id).setMinVersion(e.advertisedMinVersion).setMaxVersion(e.maxVersion));
        }
        return keys;
    }

    /** The client quotas the served requests are charged to (the request quota by the dispatcher). */
    public QuotaEnforcement quotas() {
        return quotas;
    }

    /** Whether the key's handler blocks (file I/O with fsyncs) and must run off the event loop. */
    public boolean isBlocking(ApiKeys key) {
        Entry<?> entry = entries.get(key);
        return entry != null && entry.blocking;
    }

    /**
     * One served API key.
     *
     * @param advertisedMinVersion the lowest version ApiVersions names: {@code minVersion}, or lower where clients
     *                             read an old version's presence as a feature flag (see {@link Builder#advertiseFrom})
     * @param blocking             the handler does blocking work (fsyncs) and runs on the blocking executor
     */
    public record Entry<Q extends AbstractRequest>(ApiKeys key, short minVersion, short maxVersion,
                                                   short advertisedMinVersion, ApiHandler<Q> handler, boolean blocking) {
    }

    /** Collects entries; ApiVersions itself is always served, answered from the registry. */
    public static final class Builder {
        private final Map<ApiKeys, Entry<?>> entries = new EnumMap<>(ApiKeys.class);
        private QuotaEnforcement quotas = QuotaEnforcement.NONE;

        private Builder() {
        }

        public <Q extends AbstractRequest> Builder serve(ApiKeys key, int minVersion, int maxVersion, ApiHandler<Q> handler) {
            return add(key, minVersion, maxVersion, handler, false);
        }

        /** A key whose handler blocks on file I/O: it runs off the event loop (see {@link KafkaApiDispatcher}). */
        public <Q extends AbstractRequest> Builder serveBlocking(ApiKeys key, int minVersion, int maxVersion,
                                                                 ApiHandler<Q> handler) {
            return add(key, minVersion, maxVersion, handler, true);
        }

        private <Q extends AbstractRequest> Builder add(ApiKeys key, int minVersion, int maxVersion, ApiHandler<Q> handler,
                                                        boolean blocking) {
            // latestVersion(false): versions kafka-clients marks unstable are never advertised, as in Apache
            // (unstable.api.versions.enable defaults to false).
            short latestStable = key.latestVersion(false);
            if (minVersion < key.oldestVersion() || maxVersion > latestStable || minVersion > maxVersion) {
                throw new IllegalArgumentException(key + " " + minVersion + "-" + maxVersion + " is outside the stable "
                        + "versions kafka-clients defines: " + key.oldestVersion() + "-" + latestStable);
            }
            if (entries.putIfAbsent(key, new Entry<>(key, (short) minVersion, (short) maxVersion, (short) minVersion,
                    handler, blocking)) != null) {
                throw new IllegalArgumentException(key + " is registered twice");
            }
            return this;
        }

        /**
         * Names {@code key} in ApiVersions from {@code version}, below the lowest version it serves; a request at an
         * unserved version still closes the connection. Kafka 4.0 does this for Produce v0-v2 (KAFKA-18659): librdkafka
         * before 2.8 takes Produce v0's absence for a broker without compression and sends every batch uncompressed.
         */
        public Builder advertiseFrom(ApiKeys key, int version) {
            Entry<?> entry = entries.get(key);
            if (entry == null || version < key.oldestVersion() || version > entry.minVersion()) {
                throw new IllegalArgumentException(key + " cannot be advertised from " + version);
            }
            entries.put(key, withAdvertisedMin(entry, (short) version));
            return this;
        }

        private static <Q extends AbstractRequest> Entry<Q> withAdvertisedMin(Entry<Q> entry, short version) {
            return new Entry<>(entry.key(), entry.minVersion(), entry.maxVersion(), version, entry.handler(),
                    entry.blocking());
        }

        /** The client quotas requests are charged to; none unless set. */
        public Builder quotas(QuotaEnforcement quotas) {
            this.quotas = quotas;
            return this;
        }

        public ApiRegistry build() {
            ApiRegistry registry = new ApiRegistry(entries, quotas);
            ApiHandler<ApiVersionsRequest> apiVersions = (context, request) -> CompletableFuture.completedFuture(
                    request.isValid()
                            ? new ApiVersionsResponse(new ApiVersionsResponseData().setApiKeys(registry.apiVersions()))
                            : request.getErrorResponse(0, Errors.INVALID_REQUEST.exception()));
            serve(ApiKeys.API_VERSIONS, 0, ApiKeys.API_VERSIONS.latestVersion(false), apiVersions);
            return registry;
        }
    }
}
