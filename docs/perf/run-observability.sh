#!/usr/bin/env bash
# What tracing and the OTLP push cost: the same kaas build twice on this machine, A with no OTLP endpoint
# (nothing traced, nothing pushed; /metrics and the counters are always on and cannot be turned off) and B
# pushing metrics and traces (the default sampler: 1 % of requests) to a local sink that answers 200.
# Both in the default pairing's settings (no fsync per append: CPU-bound, where overhead shows most),
# driven by the shared harness: warm-up, then A and B alternately, medians and B/A.
#   docs/perf/run-observability.sh [--quick] [--rounds N]
# Needs ../shared/tools/perf, bootstrap/target/kaas.jar (or JAR), python3. Writes docs/perf/<date>-observability.md, or the
# file REPORT names; the load average before and after goes in it (the machine is shared).
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT="$(pwd)"
PERF="${PERF:-$ROOT/../shared/tools/perf}"
JAR="${JAR:-$ROOT/bootstrap/target/kaas.jar}"  # a copy keeps a rebuild during the run from changing the broker
[ -f "$JAR" ] || mvn -B -q -o -DskipTests package -pl bootstrap -am
OUT="$(mktemp -d /tmp/kaas-bench-otel-XXXX)"
SINK_PORT=39517
python3 "$ROOT/docs/perf/otlp-sink.py" "$SINK_PORT" >"$OUT/sink.log" 2>&1 &
SINK_PID=$!
LOAD_BEFORE="$(cat /proc/loadavg)"
trap 'kill $SINK_PID 2>/dev/null || true' EXIT
COMMON="KAAS_FLUSH_INTERVAL_MESSAGES=1000000000 KAAS_GROUP_INITIAL_REBALANCE_DELAY_MS=0 KAAS_HEALTH_PORT=0"
A_START="rm -rf /tmp/kaas-bench-otel-a && $COMMON KAAS_PORT=39392 KAAS_DATA_DIR=/tmp/kaas-bench-otel-a java -Xmx1g -jar $JAR"
B_START="rm -rf /tmp/kaas-bench-otel-b && $COMMON KAAS_PORT=39492 KAAS_DATA_DIR=/tmp/kaas-bench-otel-b OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:$SINK_PORT java -Xmx1g -jar $JAR"
"$PERF/compare.sh" "$@" --out "$OUT" \
  --a-name "kaas, no OTLP endpoint (tracing off)" --a-start "$A_START" --a-stop "rm -rf /tmp/kaas-bench-otel-a" \
  --a-bootstrap 127.0.0.1:39392 \
  --b-name "kaas, OTLP push + tracing at the default 1 %" --b-start "$B_START" --b-stop "rm -rf /tmp/kaas-bench-otel-b" \
  --b-bootstrap 127.0.0.1:39492 | tee "$OUT/compare.txt"
LOAD_AFTER="$(cat /proc/loadavg)"
FILE="${REPORT:-docs/perf/$(date +%Y-%m-%d)-observability.md}"
{
  echo "# Observability overhead: tracing and OTLP push on vs off, $(date -u +%Y-%m-%dT%H:%MZ)"
  echo
  echo "Machine: $(nproc) cores, shared with other builds; Java: $(java -version 2>&1 | head -1); commit $(git rev-parse --short HEAD)."
  echo "Command: \`docs/perf/run-observability.sh $*\`. A: $A_START"
  echo "B: $B_START"
  echo "Load average (1, 5, 15 min) before: $LOAD_BEFORE; after: $LOAD_AFTER."
  echo
  echo '```'
  cat "$OUT/compare.txt"
  echo '```'
} >"$FILE"
echo "wrote $FILE (raw results in $OUT)"
