# kafka-cluster.sh cluster-id: the cluster id, stable across calls.
. "$(dirname "$0")/../lib.sh"
tool org.apache.kafka.tools.ClusterTool cluster-id --bootstrap-server "$BOOTSTRAP"
expect_ok; expect "^Cluster ID: [A-Za-z0-9_-]{22}\$" "a 22-character base64 cluster id"
first="$OUT"
tool org.apache.kafka.tools.ClusterTool cluster-id --bootstrap-server "$BOOTSTRAP"
[ "$OUT" = "$first" ] || fail "the cluster id changed between calls"
pass
