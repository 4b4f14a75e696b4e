# kafka-e2e-latency.sh: 200 round trips producer -> broker -> consumer.
. "$(dirname "$0")/../lib.sh"
requires_api OffsetCommit "the tool commits its consumer's offsets"
T=$(topic_name t)
create_topic "$T" 1
tool org.apache.kafka.tools.EndToEndLatency "$BOOTSTRAP" "$T" 200 all 100
expect_ok; expect "Avg latency: [0-9.]+ ms" ; expect "Percentiles: 50th = [0-9]+"
pass
