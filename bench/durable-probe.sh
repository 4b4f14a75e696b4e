#!/usr/bin/env bash
# Where the durable produce path's time and CPU go (issue 15's breakdown): starts kaas from JAR with
# flush.messages=1 (an fsync behind every acks=all answer), warms it up, then per scenario prints records/s,
# broker user/system CPU per 100k records, context switches (perf stat), fsyncs/s and bytes per fsync, the
# acks=-1 steps from /metrics (queue, append, fsync wait, answer) and the acks-before-sync counter.
# With --jfr, a last 1 KiB pass runs under a JFR recording: top frames and the allocation rate.
#   bench/durable-probe.sh JAR OUTDIR [--jfr] [--partitions N] [--producers N]
# Needs ../shared/tools/peer-kafka.sh (the Apache 3.7.2 client tools), perf, python3.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
KAFKA_SH="${KAFKA_SH:-$ROOT/../shared/tools/peer-kafka.sh}"
JAR="$1"; OUT="$2"; shift 2
JFR=0; PARTITIONS=6; PRODUCERS=1
N_1K="${N_1K:-300000}"; N_100B="${N_100B:-2000000}"
while [ $# -gt 0 ]; do
  case "$1" in
    --jfr) JFR=1 ;;
    --partitions) PARTITIONS="$2"; shift ;;
    --producers) PRODUCERS="$2"; shift ;;
    *) sed -n '2,8p' "$0" >&2; exit 2 ;;
  esac
  shift
done
mkdir -p "$OUT"
PORT="${PORT:-39392}"; HEALTH=$((PORT + 7))
DATA="$(mktemp -d /tmp/kaas-probe-XXXX)"
KAAS_PORT=$PORT KAAS_HEALTH_PORT=$HEALTH KAAS_DATA_DIR="$DATA" KAAS_FLUSH_INTERVAL_MESSAGES=1 \
  KAAS_GROUP_INITIAL_REBALANCE_DELAY_MS=0 setsid java -Xmx1g -jar "$JAR" > "$OUT/broker.out" 2>&1 < /dev/null &
BROKER=$!
trap 'kill $BROKER 2>/dev/null || true; wait $BROKER 2>/dev/null || true; rm -rf "$DATA"' EXIT
BOOT="127.0.0.1:$PORT"
for _ in $(seq 1 120); do
  timeout 30 "$KAFKA_SH" tool org.apache.kafka.tools.TopicCommand --bootstrap-server "$BOOT" --list >/dev/null 2>&1 && break
  sleep 1
done
tool() { "$KAFKA_SH" tool "$@"; }
topic() { tool org.apache.kafka.tools.TopicCommand --bootstrap-server "$BOOT" --create --topic "$1" \
  --partitions "$PARTITIONS" --replication-factor 1 >/dev/null; }
cpu() { awk '{print $14, $15}' "/proc/$BROKER/stat"; }
metrics() { curl -s "http://127.0.0.1:$HEALTH/metrics"; }
produce() { # TOPIC N SIZE EXTRA...
  local t="$1" n="$2" size="$3"; shift 3
  local per=$((n / PRODUCERS)) pids=()
  for i in $(seq 1 "$PRODUCERS"); do
    tool org.apache.kafka.tools.ProducerPerformance --topic "$t" --num-records "$per" --record-size "$size" \
      --throughput -1 --producer-props bootstrap.servers="$BOOT" acks=all "$@" > "$OUT/$t-$i.log" 2>&1 &
    pids+=($!)
  done
  for p in "${pids[@]}"; do wait "$p"; done
}
measure() { # NAME N SIZE EXTRA...
  local name="$1" n="$2" size="$3"; shift 3
  topic "$name"
  metrics > "$OUT/$name.before.prom"; local c0; c0="$(cpu)"; local t0; t0=$(date +%s.%N)
  perf stat -e context-switches,cpu-migrations -p "$BROKER" -o "$OUT/$name.perfstat" &
  local perfpid=$!
  produce "$name" "$n" "$size" "$@"
  kill -INT $perfpid; wait $perfpid || true
  local t1; t1=$(date +%s.%N); local c1; c1="$(cpu)"; metrics > "$OUT/$name.after.prom"
  python3 "$ROOT/bench/lib/probe_report.py" "$name" "$n" "$PARTITIONS" "$t0" "$t1" "$c0" "$c1" "$OUT" | tee -a "$OUT/summary.txt"
}
topic warm
produce warm 200000 1024
produce warm 1000000 100 linger.ms=5 batch.size=65536
measure "p1k" "$N_1K" 1024
measure "p100b" "$N_100B" 100 linger.ms=5 batch.size=65536
if [ "$JFR" = 1 ]; then
  jcmd $BROKER JFR.start name=probe settings=profile filename="$OUT/probe.jfr" >/dev/null
  measure "p1kjfr" "$N_1K" 1024
  jcmd $BROKER JFR.stop name=probe >/dev/null
  python3 "$ROOT/bench/lib/jfr_summary.py" "$OUT/probe.jfr" | tee "$OUT/jfr.txt"
  # JFR samples threads in Java code only; the kernel side (fsync, futex, epoll) needs perf.
  topic "perfrec"
  perf record -F 499 -g -p "$BROKER" -o "$OUT/perf.data" 2> /dev/null &
  perfpid=$!
  produce "perfrec" "$N_1K" 1024
  kill -INT $perfpid; wait $perfpid || true
  perf report -i "$OUT/perf.data" --no-children --sort sym --stdio 2> /dev/null | grep -E '^ +[0-9.]+%' | head -25 \
    | tee "$OUT/perf.txt"
fi
