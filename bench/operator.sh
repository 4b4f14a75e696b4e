#!/usr/bin/env bash
# The operator on the local cluster (dev/cluster.sh: the development API server, kaas-operator.jar, three brokers on
# one shared directory) against Apache Kafka 3.7.2 (one KRaft node, ../shared/tools/peer-kafka.sh) on this machine:
#   (a) kubectl apply of a KafkaTopic -> Ready in the API server, and -> a producer's first acknowledged write
#   (b) Admin CreateTopics (what kafka-topics --create sends) -> its answer, and -> the KafkaTopic Ready
#   (c) COUNT KafkaTopics POSTed to the API server as fast as it takes them (32 in flight) -> all Ready, and the
#       operator's memory before and after (RSS, and the heap used after a full GC)
#   (d) Apache's CreateTopics answer for the same topic shape, one at a time and COUNT in one request
# Every topic: retention.ms=604800000, 3 partitions ((a), (b), (d) one at a time) or PARTITIONS ((c), (d) in bulk).
# Readiness is timed from a watch on the API server (bench/OperatorProbe.java), what `kubectl get kt` reads.
#   bench/operator.sh [--repeats N] [--count COUNT] [--partitions PARTITIONS]
# Needs kubectl, ../shared/tools/peer-kafka.sh, Java 17 (jcmd), Maven. Prints "metric value" lines.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
KSH="${KAFKA_SH:-$ROOT/../shared/tools/peer-kafka.sh}"
REPEATS=10; COUNT=1000; PARTITIONS=1
while [ $# -gt 0 ]; do
  case "$1" in
    --repeats) REPEATS="$2"; shift 2 ;;
    --count) COUNT="$2"; shift 2 ;;
    --partitions) PARTITIONS="$2"; shift 2 ;;
    *) sed -n '2,12p' "$0" >&2; exit 2 ;;
  esac
done
command -v kubectl >/dev/null || { echo "operator.sh: kubectl is needed" >&2; exit 1; }
CP="$("$KSH" classpath)"
WORK="$(mktemp -d /tmp/kaas-operator-bench-XXXX)"
KAAS_BASE=27092; APACHE_PORT=27500
API="http://127.0.0.1:$((KAAS_BASE + 300))"
probe() { java -cp "$CP" "$ROOT/bench/OperatorProbe.java" "$@"; }

cleanup() {
  "$ROOT/dev/cluster.sh" stop "$WORK/kaas" >/dev/null 2>&1 || true
  "$KSH" stop "$WORK/apache" >/dev/null 2>&1 || true
}
trap cleanup EXIT

memory() { # LABEL
  local pid; pid="$(cat "$WORK/kaas/operator.pid")"
  jcmd "$pid" GC.run >/dev/null
  echo "operator_rss_kib_$1 $(awk '/^VmRSS/ {print $2}' "/proc/$pid/status")"
  echo "operator_heap_used_after_gc_kib_$1 $(jcmd "$pid" GC.heap_info | awk '/ total / {for (i=1;i<=NF;i++) if ($i=="used") {print $(i+1); exit}}' | tr -d K)"
}

echo "machine $(nproc) cores, $(awk '/MemTotal/ {printf "%.1f GiB", $2/1048576}' /proc/meminfo), $(uname -r), $(java -version 2>&1 | head -1)"
echo "load_average_before $(cut -d' ' -f1-3 /proc/loadavg)"
BOOTSTRAP="$("$ROOT/dev/cluster.sh" start 3 "$WORK/kaas" "$KAAS_BASE" | tail -1)"
export KUBECONFIG="$WORK/kaas/kubeconfig"
probe apply-to-ack "$BOOTSTRAP" "$API" "$KUBECONFIG" "$REPEATS"
probe create-to-ready "$BOOTSTRAP" "$API" "$REPEATS"
memory before_bulk
probe bulk "$API" "$COUNT" "$PARTITIONS"
memory after_bulk
echo "kafkatopics_listed_by_kubectl $(kubectl get kt --no-headers | wc -l)"
echo "load_average_after_kaas $(cut -d' ' -f1-3 /proc/loadavg)"
"$ROOT/dev/cluster.sh" stop "$WORK/kaas"

"$KSH" start "$APACHE_PORT" "$WORK/apache" >/dev/null
probe apache-create "127.0.0.1:$APACHE_PORT" "$REPEATS" "$COUNT" "$PARTITIONS"
"$KSH" stop "$WORK/apache"
rm -rf "$WORK"
