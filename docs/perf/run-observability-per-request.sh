#!/usr/bin/env bash
# What a real Produce and a real Fetch cost the whole broker process, in CPU: the denominator for the added cost
# per request that bench/jmh's ObservabilityBenchmark measures in process (metrics plus 1 % tracing, on - off, in
# ns per request: too small for a whole-broker A/B to resolve on a shared machine). One broker as shipped (an fsync
# behind every acks=all answer, or KAAS_FLUSH_INTERVAL_MESSAGES from the environment), metrics pushed over OTLP and
# 1 % of requests traced to a local sink; each round produces N x 1 KiB records (acks=all, 6 partitions, a fresh
# topic, batch.size 16384 as the benchmark's batches) and consumes them back; the broker's CPU ticks (/proc) and its
# own request counters (kaas_requests_total on /metrics) before and after each phase give CPU per request and per
# MiB. A third phase has a consumer tail the topic while a producer sends 2,000 records/s (one small request at a
# time each way: the shape where a fixed cost per request weighs the most): CPU per request of either kind.
# Prints every round and the medians.
#   docs/perf/run-observability-per-request.sh [ROUNDS (5)] [N (200000)]
# Needs ../shared/tools/peer-kafka.sh (the client tools), bootstrap/target/kaas.jar (or JAR), python3, curl.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT="$(pwd)"
ROUNDS="${1:-5}"; N="${2:-200000}"; TAIL=20000
KAFKA_SH="${KAFKA_SH:-$ROOT/../shared/tools/peer-kafka.sh}"
JAR="${JAR:-$ROOT/bootstrap/target/kaas.jar}"
OUT="$(mktemp -d /tmp/kaas-obs-req-XXXX)"
SINK_PORT=39618; PORT=39693; HEALTH=39694
HZ=$(getconf CLK_TCK)
python3 "$ROOT/docs/perf/otlp-sink.py" "$SINK_PORT" >"$OUT/sink.log" 2>&1 &
PIDS=($!)
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$OUT/data"; }
trap cleanup EXIT
KAAS_PORT=$PORT KAAS_HEALTH_PORT=$HEALTH KAAS_BIND_HOST=127.0.0.1 KAAS_DATA_DIR="$OUT/data" \
  OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:$SINK_PORT java -Xmx1g -jar "$JAR" >"$OUT/broker.log" 2>&1 &
PIDS+=($!); PID=$!
for _ in $(seq 120); do curl -sf "http://127.0.0.1:$HEALTH/readyz" -o /dev/null && break; sleep 1; done
ticks() { awk '{print $14+$15}' "/proc/$PID/stat"; }
requests() { # API: answered so far
  curl -sf "http://127.0.0.1:$HEALTH/metrics" | awk -v api="$1" '$1 ~ "^kaas_requests_total\\{.*api=\"" api "\"" { s += $2 } END { print s + 0 }'
}
# One round: "produce_cpu_s produce_requests consume_cpu_s fetch_requests"
round() {
  local topic="obs-req-$1" c0 c1 c2 p0 p1 f0 f1
  "$KAFKA_SH" tool org.apache.kafka.tools.TopicCommand --bootstrap-server 127.0.0.1:$PORT --create --topic "$topic" \
    --partitions 6 --replication-factor 1 >>"$OUT/tools.log" 2>&1
  p0=$(requests Produce); c0=$(ticks)
  "$KAFKA_SH" tool org.apache.kafka.tools.ProducerPerformance --topic "$topic" --num-records "$N" --record-size 1024 \
    --throughput -1 --producer-props bootstrap.servers=127.0.0.1:$PORT acks=all batch.size=16384 >>"$OUT/tools.log" 2>&1
  c1=$(ticks); p1=$(requests Produce); f0=$(requests Fetch)
  "$KAFKA_SH" tool org.apache.kafka.tools.ConsumerPerformance --bootstrap-server 127.0.0.1:$PORT --topic "$topic" \
    --messages "$N" --group "$topic-g" --timeout 60000 >>"$OUT/tools.log" 2>&1
  c2=$(ticks); f1=$(requests Fetch)
  # tailing: a consumer waits at the log end while a producer sends 2,000 records/s: small requests, where a
  # fixed cost per request weighs the most
  "$KAFKA_SH" tool org.apache.kafka.tools.ConsumerPerformance --bootstrap-server 127.0.0.1:$PORT --topic "$topic" \
    --messages "$((N + TAIL))" --group "$topic-tail" --timeout 60000 >>"$OUT/tools.log" 2>&1 &
  local consumer=$!
  "$KAFKA_SH" tool org.apache.kafka.tools.ConsumerPerformance --bootstrap-server 127.0.0.1:$PORT --topic "$topic" \
    --messages 1 --group "$topic-probe" --timeout 60000 >/dev/null 2>&1 # the tailing consumer has joined by now
  local q0 t0 g0 q1 t1 g1
  t0=$(requests Produce); g0=$(requests Fetch); q0=$(ticks) # scrapes outside the CPU window
  "$KAFKA_SH" tool org.apache.kafka.tools.ProducerPerformance --topic "$topic" --num-records "$TAIL" --record-size 1024 \
    --throughput 2000 --producer-props bootstrap.servers=127.0.0.1:$PORT acks=all >>"$OUT/tools.log" 2>&1
  q1=$(ticks); t1=$(requests Produce); g1=$(requests Fetch)
  wait "$consumer"
  echo "$(( (c1 - c0) )) $(( p1 - p0 )) $(( (c2 - c1) )) $(( f1 - f0 )) $(( q1 - q0 )) $(( t1 - t0 )) $(( g1 - g0 ))"
}
echo "load before: $(cat /proc/loadavg)"
round warm >/dev/null
: >"$OUT/rounds.txt"
for r in $(seq "$ROUNDS"); do
  echo "$r $(round "$r") $(cut -d' ' -f1 /proc/loadavg)" | tee -a "$OUT/rounds.txt"
done
echo "load after: $(cat /proc/loadavg)"
python3 - "$OUT/rounds.txt" "$N" "$HZ" <<'PY'
import statistics, sys
rows = [list(map(float, l.split())) for l in open(sys.argv[1]) if l.strip()]
n, hz = int(sys.argv[2]), float(sys.argv[3])
mib = n * 1024 / 2**20
def per(i, j, scale): return [r[i] / hz / r[j] * scale for r in rows]
print(f"{len(rows)} rounds of {n:,} x 1 KiB records ({mib:.0f} MiB each way); broker CPU, medians [min..max]")
for name, values in (("produce: CPU us per Produce request", per(1, 2, 1e6)),
                     ("produce: Produce requests per round", [r[2] for r in rows]),
                     ("produce: CPU ms per MiB", [r[1] / hz / mib * 1e3 for r in rows]),
                     ("consume: CPU us per Fetch request", per(3, 4, 1e6)),
                     ("consume: Fetch requests per round", [r[4] for r in rows]),
                     ("consume: CPU ms per MiB", [r[3] / hz / mib * 1e3 for r in rows]),
                     ("tailing: CPU us per request", [r[5] / hz / (r[6] + r[7]) * 1e6 for r in rows]),
                     ("tailing: Produce requests", [r[6] for r in rows]),
                     ("tailing: Fetch requests", [r[7] for r in rows])):
    print(f"{name:<40}{statistics.median(values):>12.1f}   [{min(values):.1f}..{max(values):.1f}]")
PY
echo "raw: $OUT"
