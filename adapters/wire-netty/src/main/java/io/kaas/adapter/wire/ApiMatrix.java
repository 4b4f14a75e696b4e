package io.kaas.adapter.wire;

import io.kaas.adapter.wire.dispatch.ApiRegistry;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.protocol.ApiKeys;

/**
 * Renders {@code docs/api-matrix.md} from the registry, so the documented surface is the served
 * one. A test fails when the committed file differs from this rendering.
 */
public final class ApiMatrix {
    /** Apache keys that only brokers, controllers or the KRaft quorum exchange: kaas has no such peers. */
    private static final Set<ApiKeys> INTER_BROKER = EnumSet.of(ApiKeys.LEADER_AND_ISR, ApiKeys.STOP_REPLICA,
            ApiKeys.UPDATE_METADATA, ApiKeys.CONTROLLED_SHUTDOWN, ApiKeys.VOTE, ApiKeys.BEGIN_QUORUM_EPOCH,
            ApiKeys.END_QUORUM_EPOCH, ApiKeys.DESCRIBE_QUORUM, ApiKeys.ALTER_PARTITION, ApiKeys.ENVELOPE,
            ApiKeys.FETCH_SNAPSHOT, ApiKeys.BROKER_REGISTRATION, ApiKeys.BROKER_HEARTBEAT, ApiKeys.UNREGISTER_BROKER,
            ApiKeys.ALLOCATE_PRODUCER_IDS, ApiKeys.CONTROLLER_REGISTRATION, ApiKeys.ASSIGN_REPLICAS_TO_DIRS,
            ApiKeys.UPDATE_FEATURES);
    /** Keys whose feature is a stated non-goal, with the reason. */
    private static final Map<ApiKeys, String> NON_GOALS = Map.of(
            ApiKeys.CREATE_DELEGATION_TOKEN, "delegation tokens (KIP-48)",
            ApiKeys.RENEW_DELEGATION_TOKEN, "delegation tokens (KIP-48)",
            ApiKeys.EXPIRE_DELEGATION_TOKEN, "delegation tokens (KIP-48)",
            ApiKeys.DESCRIBE_DELEGATION_TOKEN, "delegation tokens (KIP-48)",
            ApiKeys.GET_TELEMETRY_SUBSCRIPTIONS, "client metrics push (KIP-714)",
            ApiKeys.PUSH_TELEMETRY, "client metrics push (KIP-714)",
            ApiKeys.LIST_CLIENT_METRICS_RESOURCES, "client metrics push (KIP-714)",
            ApiKeys.CONSUMER_GROUP_HEARTBEAT, "next-generation rebalance protocol (KIP-848, unstable in 3.7)",
            ApiKeys.CONSUMER_GROUP_DESCRIBE, "next-generation rebalance protocol (KIP-848, unstable in 3.7)",
            ApiKeys.OFFSET_FOR_LEADER_EPOCH, "log truncation detection (KIP-320): there are no followers to diverge from");

    private ApiMatrix() {
    }

    public static String render(ApiRegistry registry) {
        StringBuilder md = new StringBuilder();
        md.append("# API support matrix\n\n")
                .append("Generated from the API registry (`adapters/wire-netty/src/main/java/io/kaas/adapter/wire/KafkaApis.java`),\n")
                .append("the same table that builds the ApiVersions response. `ApiMatrixTest` fails when this file drifts;\n")
                .append("regenerate with `mvn -B -q -pl adapters/wire-netty -am test -Dtest=ApiMatrixTest "
                        + "-Dsurefire.failIfNoSpecifiedTests=false -Dkaas.regenerate=true`.\n\n")
                .append("kaas serves ").append(registry.entries().size()).append(" API keys.\n\n")
                .append("| key | API | served | Apache 3.7 | flexible from |\n")
                .append("|---:|---|---|---|---|\n");
        registry.entries().values().forEach(e -> md.append("| ").append(e.key().id).append(" | ").append(name(e.key()))
                .append(" | ").append(e.minVersion()).append("–").append(e.maxVersion())
                .append(e.advertisedMinVersion() < e.minVersion()
                        ? " (ApiVersions: " + e.advertisedMinVersion() + "–" + e.maxVersion() + ")" : "")
                .append(" | ").append(e.key().oldestVersion()).append("–").append(e.key().latestVersion())
                .append(" | ").append(flexibleFrom(e.key())).append(" |\n"));
        md.append("\nWhere ApiVersions names versions below the served ones, a request at one of them closes the connection, "
                + "as Kafka 4.0 answers Produce v0–v2 (KIP-896, KAFKA-18659): librdkafka before 2.8 reads Produce v0 in "
                + "ApiVersions as \"this broker takes compressed batches\".\n");
        md.append("\n## Apache 3.7 keys kaas does not serve\n\n")
                .append("Clients learn the served surface from ApiVersions, so an absent key is a clean \"unsupported\".\n\n")
                .append("| key | API | why |\n|---:|---|---|\n");
        for (ApiKeys key : ApiKeys.values()) {
            if (!registry.entries().containsKey(key)) {
                md.append("| ").append(key.id).append(" | ").append(name(key)).append(" | ").append(whyNot(key)).append(" |\n");
            }
        }
        return md.toString();
    }

    private static String whyNot(ApiKeys key) {
        if (INTER_BROKER.contains(key)) {
            return "non-goal: inter-broker / KRaft surface (no replication, no quorum)";
        }
        String nonGoal = NON_GOALS.get(key);
        return nonGoal != null ? "non-goal: " + nonGoal : "not built yet";
    }

    private static String name(ApiKeys key) {
        return key.name;
    }

    private static String flexibleFrom(ApiKeys key) {
        for (short v = key.oldestVersion(); v <= key.latestVersion(); v++) {
            if (key.requestHeaderVersion(v) >= 2) {
                return "v" + v;
            }
        }
        return "—";
    }
}
