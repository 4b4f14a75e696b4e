#!/usr/bin/env bash
# Broker CPU per fixed amount of work, tracing and OTLP push on vs off: the measure of observability overhead
# that survives a shared machine. Throughput on a machine whose other tenants take 80-95 % of the cores measures
# the tenants; the CPU seconds the broker process spends to take N records in and hand them out again barely
# depend on them. Both brokers run side by side (A: no OTLP endpoint; B: metrics pushed and 1 % of requests
# traced, the defaults, to a local sink), each round produces N x 1 KiB records (acks=all, 6 partitions, a fresh
# topic) and consumes them back, against A and B in ABBA order (drift cancels), after one discarded warm-up round.
# Prints per-round CPU and wall seconds, medians and B/A.
#   docs/perf/run-observability-cpu.sh [ROUNDS (6)] [N (100000)]
# Needs ../shared/tools/peer-kafka.sh (the client tools), bootstrap/target/kaas.jar (or JAR), python3.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT="$(pwd)"
ROUNDS="${1:-6}"; N="${2:-100000}"
KAFKA_SH="${KAFKA_SH:-$ROOT/../shared/tools/peer-kafka.sh}"
JAR="${JAR:-$ROOT/bootstrap/target/kaas.jar}"
OUT="$(mktemp -d /tmp/kaas-obs-cpu-XXXX)"
SINK_PORT=39518; A_PORT=39393; B_PORT=39493
HZ=$(getconf CLK_TCK)
python3 "$ROOT/docs/perf/otlp-sink.py" "$SINK_PORT" >"$OUT/sink.log" 2>&1 &
PIDS=($!)
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$OUT/a" "$OUT/b"; }
trap cleanup EXIT
COMMON=(KAAS_FLUSH_INTERVAL_MESSAGES=1000000000 KAAS_HEALTH_PORT=0 KAAS_BIND_HOST=127.0.0.1)
env "${COMMON[@]}" KAAS_PORT=$A_PORT KAAS_DATA_DIR="$OUT/a" java -Xmx1g -jar "$JAR" >"$OUT/a.log" 2>&1 &
PIDS+=($!); A_PID=$!
env "${COMMON[@]}" KAAS_PORT=$B_PORT KAAS_DATA_DIR="$OUT/b" OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:$SINK_PORT \
  java -Xmx1g -jar "$JAR" >"$OUT/b.log" 2>&1 &
PIDS+=($!); B_PID=$!
for port in $A_PORT $B_PORT; do
  for _ in $(seq 120); do ss -ltnH "sport = :$port" | grep -q . && break; sleep 1; done
done
ticks() { awk '{print $14+$15}' "/proc/$1/stat"; }
# One round against one broker: prints "produce_cpu_s produce_wall_s consume_cpu_s consume_wall_s".
round() {
  local port=$1 pid=$2 topic="obs-cpu-$3" t0 t1 t2 c0 c1 c2
  "$KAFKA_SH" tool org.apache.kafka.tools.TopicCommand --bootstrap-server 127.0.0.1:$port --create --topic "$topic" \
    --partitions 6 --replication-factor 1 >>"$OUT/tools.log" 2>&1
  c0=$(ticks "$pid"); t0=$(date +%s.%N)
  "$KAFKA_SH" tool org.apache.kafka.tools.ProducerPerformance --topic "$topic" --num-records "$N" --record-size 1024 \
    --throughput -1 --producer-props bootstrap.servers=127.0.0.1:$port acks=all >>"$OUT/tools.log" 2>&1
  c1=$(ticks "$pid"); t1=$(date +%s.%N)
  "$KAFKA_SH" tool org.apache.kafka.tools.ConsumerPerformance --bootstrap-server 127.0.0.1:$port --topic "$topic" \
    --messages "$N" --group "$topic-g" --timeout 60000 >>"$OUT/tools.log" 2>&1
  c2=$(ticks "$pid"); t2=$(date +%s.%N)
  awk -v hz="$HZ" -v c0="$c0" -v c1="$c1" -v c2="$c2" -v t0="$t0" -v t1="$t1" -v t2="$t2" \
    'BEGIN { printf "%.2f %.2f %.2f %.2f\n", (c1-c0)/hz, t1-t0, (c2-c1)/hz, t2-t1 }'
}
echo "load before: $(cat /proc/loadavg)"
round $A_PORT $A_PID warm-a >/dev/null; round $B_PORT $B_PID warm-b >/dev/null
: >"$OUT/rounds.txt"
for r in $(seq "$ROUNDS"); do
  if [ $((r % 2)) = 1 ]; then order="A B"; else order="B A"; fi
  for who in $order; do
    if [ "$who" = A ]; then line=$(round $A_PORT $A_PID "a-$r"); else line=$(round $B_PORT $B_PID "b-$r"); fi
    echo "$r $who $line $(cut -d' ' -f1 /proc/loadavg)" | tee -a "$OUT/rounds.txt"
  done
done
echo "load after: $(cat /proc/loadavg)"
python3 - "$OUT/rounds.txt" "$N" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1]) if l.strip()]
n = int(sys.argv[2])
cols = {"produce_cpu_s": 2, "produce_wall_s": 3, "consume_cpu_s": 4, "consume_wall_s": 5, "load1": 6}
print(f"{len(rows) // 2} rounds of {n:,} x 1 KiB records; medians, B/A (B = OTLP push + 1 % traced)")
print(f"{'metric':<16}{'A':>10}{'B':>10}{'B/A':>8}   A per round / B per round")
for name, i in cols.items():
    a = [float(r[i]) for r in rows if r[1] == "A"]; b = [float(r[i]) for r in rows if r[1] == "B"]
    ma, mb = statistics.median(a), statistics.median(b)
    print(f"{name:<16}{ma:>10.2f}{mb:>10.2f}{mb / ma:>8.3f}   {a} / {b}")
# paired by round: each B against the A of its round, which ran next to it
for name, i in (("produce_cpu_s", 2), ("consume_cpu_s", 4)):
    ratios = []
    for r in sorted({row[0] for row in rows}, key=int):
        a = [float(x[i]) for x in rows if x[0] == r and x[1] == "A"]; b = [float(x[i]) for x in rows if x[0] == r and x[1] == "B"]
        ratios.append(b[0] / a[0])
    print(f"paired B/A {name}: median {statistics.median(ratios):.3f}, per round {[round(x, 3) for x in ratios]}")
PY
echo "raw: $OUT"
