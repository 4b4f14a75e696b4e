package io.kaas.operator;

import io.kaas.adapter.fs.VolumePoolSetting;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The operator's configuration, from its pod's environment.
 *
 * @param dataDir        {@code KAAS_DATA_DIR}: where the shared data volume is mounted (/data)
 * @param namespace      {@code KAAS_NAMESPACE}, else {@code MY_POD_NAMESPACE}: the namespace whose resources it
 *                       reconciles and whose Lease it competes for
 * @param leaderElection the Lease that lets one replica reconcile and sweep at a time; absent where one operator runs
 *                       alone and the API server cannot answer java-operator-sdk's permission check (tests, and the
 *                       development API server of {@code dev/cluster.sh}: {@code KAAS_OPERATOR_LEADER_ELECTION=false})
 * @param sweepInterval  how often the leader's orphan sweep runs after its first pass (five minutes)
 * @param pool           {@code KAAS_VOLUME_POOL}: the volume pool's members besides the data volume, as the chart
 *                       passes them to the brokers too (none by default)
 */
public record OperatorSettings(Path dataDir, String namespace, Optional<LeaderElection> leaderElection,
                               Duration sweepInterval, List<VolumePoolSetting.Member> pool) {

    public OperatorSettings {
        pool = List.copyOf(pool);
    }

    /**
     * @param leaseName {@code KAAS_OPERATOR_LEASE_NAME}: the coordination.k8s.io Lease (kaas-operator)
     * @param identity  {@code MY_POD_NAME}, else {@code HOSTNAME}: this replica's name in it
     */
    public record LeaderElection(String leaseName, String identity) {
    }

    /** Reads the settings, reporting every problem at once. */
    public static OperatorSettings fromEnv(Map<String, String> env) {
        List<String> problems = new ArrayList<>();
        String dataDir = env.getOrDefault("KAAS_DATA_DIR", "/data");
        if (dataDir.isBlank()) {
            problems.add("KAAS_DATA_DIR is empty; it names the shared data volume's mount point (default /data)");
        }
        String namespace = first(env, "KAAS_NAMESPACE", "MY_POD_NAMESPACE");
        if (namespace == null) {
            problems.add("KAAS_NAMESPACE (or MY_POD_NAMESPACE) is not set; it names the namespace to reconcile");
        }
        String identity = first(env, "MY_POD_NAME", "HOSTNAME");
        if (identity == null) {
            problems.add("MY_POD_NAME (or HOSTNAME) is not set; it names this replica in the operator's Lease");
        }
        String leaseName = env.getOrDefault("KAAS_OPERATOR_LEASE_NAME", "kaas-operator");
        if (leaseName.isBlank()) {
            problems.add("KAAS_OPERATOR_LEASE_NAME is empty; it names the operator's Lease (default kaas-operator)");
        }
        String election = env.getOrDefault("KAAS_OPERATOR_LEADER_ELECTION", "true");
        if (!election.equals("true") && !election.equals("false")) {
            problems.add("KAAS_OPERATOR_LEADER_ELECTION must be true or false, not '" + election + "'");
        }
        List<VolumePoolSetting.Member> pool = List.of();
        try {
            pool = VolumePoolSetting.parse(env.get(VolumePoolSetting.VARIABLE));
        } catch (IllegalArgumentException e) {
            problems.add(e.getMessage());
        }
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException("invalid operator configuration:\n  " + String.join("\n  ", problems));
        }
        return new OperatorSettings(Path.of(dataDir), namespace, election.equals("true")
                ? Optional.of(new LeaderElection(leaseName, identity)) : Optional.empty(), Duration.ofMinutes(5), pool);
    }

    private static String first(Map<String, String> env, String name, String fallback) {
        String value = env.get(name);
        if (value == null || value.isBlank()) {
            value = env.get(fallback);
        }
        return value == null || value.isBlank() ? null : value;
    }
}
