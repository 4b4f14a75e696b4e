#!/usr/bin/env bash
# Produce throughput and broker CPU of a kaas cluster on this machine (dev/cluster.sh), driven by Apache Kafka 3.7.2's
# own ProducerPerformance: a topic of 6 partitions spread by the controller, acks=all (every append fsynced), broker
# CPU summed over the cluster's processes. (The unavailability after a leader's SIGKILL is what LocalClusterIT prints.)
#   bench/cluster.sh [--brokers N] [--records N] [--size BYTES]
# Needs ../shared/tools/peer-kafka.sh, Java 17, Maven, python3.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
KSH="${KAFKA_SH:-$ROOT/../shared/tools/peer-kafka.sh}"
BROKERS=3; RECORDS=300000; SIZE=1024
while [ $# -gt 0 ]; do
  case "$1" in
    --brokers) BROKERS="$2" ;; --records) RECORDS="$2" ;; --size) SIZE="$2" ;;
    *) sed -n '2,6p' "$0" >&2; exit 2 ;;
  esac
  shift 2
done
DIR="$(mktemp -d /tmp/kaas-bench-cluster-XXXX)"
BASE=24092
trap 'bash "$ROOT/dev/cluster.sh" stop "$DIR" >/dev/null 2>&1 || true' EXIT
BOOTSTRAP="$(bash "$ROOT/dev/cluster.sh" start "$BROKERS" "$DIR" "$BASE" | tail -1)"
"$KSH" tool org.apache.kafka.tools.TopicCommand --bootstrap-server "$BOOTSTRAP" --create --topic bench \
  --partitions 6 --replication-factor 1 >/dev/null
for _ in $(seq 1 60); do
  leaders=$("$KSH" tool org.apache.kafka.tools.TopicCommand --bootstrap-server "$BOOTSTRAP" --describe --topic bench 2>/dev/null \
    | grep -c 'Leader: [0-9]' || true)
  [ "$leaders" = 6 ] && break
  sleep 1
done
ticks() { local t=0; for f in "$DIR"/broker-*.pid; do t=$((t + $(awk '{print $14+$15}' "/proc/$(cat "$f")/stat"))); done; echo $t; }
perf() { # records
  "$KSH" tool org.apache.kafka.tools.ProducerPerformance --topic bench --num-records "$1" --record-size "$SIZE" \
    --throughput -1 --producer-props bootstrap.servers="$BOOTSTRAP" acks=all 2>/dev/null | tail -1
}
perf $((RECORDS / 4)) >/dev/null # warm-up
t0=$(ticks); result=$(perf "$RECORDS"); t1=$(ticks)
echo "brokers=$BROKERS records=$RECORDS size=$SIZE: $result"
python3 -c "print(f'broker CPU across the cluster: {($t1-$t0)/$(getconf CLK_TCK):.2f} s for $RECORDS records')"
"$KSH" tool org.apache.kafka.tools.TopicCommand --bootstrap-server "$BOOTSTRAP" --describe --topic bench | grep Partition:
