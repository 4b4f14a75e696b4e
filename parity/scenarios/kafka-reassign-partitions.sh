# kafka-reassign-partitions.sh --list: no reassignment is ever in progress.
. "$(dirname "$0")/../lib.sh"
requires_api ListPartitionReassignments "partition reassignment listing is not built yet"
tool org.apache.kafka.tools.reassign.ReassignPartitionsCommand --bootstrap-server "$BOOTSTRAP" --list
expect_ok; expect "No partition reassignments found"
pass
