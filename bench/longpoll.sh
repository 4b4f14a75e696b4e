#!/usr/bin/env bash
# Long-poll benchmark (issue 11): a topic of 200 partitions, 50 consumers long-polling it (fetch.max.wait.ms=500,
# fetch.min.bytes=1) and one steady producer (1000 records/s of 200 B, acks=all, linger.ms=0, round robin over the
# partitions). kaas against Apache Kafka 3.7.2 side by side on this machine, driven by the same client code
# (bootstrap/src/test/java/io/kaas/bootstrap/perf/LongPollPerf.java), alternating passes after one unmeasured
# warm-up pass per broker. Per pass and broker: the broker's CPU over the measured window (seconds, and % of one
# core) and end-to-end latency p50/p99/p99.9/max (intended send time -> poll returned the record).
#   bench/longpoll.sh [--pairing default|durable] [--passes N] [--seconds S] [--warmup S] [--consumers N]
#                     [--partitions N] [--rate R] [--bytes B] [--mode group|fanout]
# Defaults: default pairing (Apache's defaults vs kaas with a large flush interval; durable = both fsync each append),
# 2 passes, 20 s measured after 5 s of warm-up, 50 consumers, 200 partitions, 1000 rec/s, 200 B, group mode (the
# consumers share one group: 4 partitions each). --mode fanout makes every consumer read every partition (each append
# then wakes 50 parked fetches of 200 partitions); on 2 cores the client JVM saturates there above ~50 rec/s.
# Check send_lag_p99_ms: when the producer falls behind its schedule, the machine, not the broker, is the bottleneck.
# A quick smoke: bench/longpoll.sh --passes 1 --seconds 5 --warmup 2.
# KAAS_JAR=path runs another build of kaas (e.g. an earlier commit's) against the same driver.
# Needs ../shared/tools/peer-kafka.sh, Java 17, Maven, python3. Results: target/perf-longpoll/results.jsonl and a
# table with medians and kaas/Apache ratios on stdout.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
PEER="${KAFKA_SH:-$ROOT/../shared/tools/peer-kafka.sh}"
PAIRING=default; PASSES=2; SECONDS_MEASURED=20; WARMUP=5; CONSUMERS=50; PARTITIONS=200; RATE=1000; BYTES=200; MODE=group
while [ $# -gt 0 ]; do
  case "$1" in
    --pairing) PAIRING="$2" ;; --passes) PASSES="$2" ;; --seconds) SECONDS_MEASURED="$2" ;; --warmup) WARMUP="$2" ;;
    --consumers) CONSUMERS="$2" ;; --partitions) PARTITIONS="$2" ;; --rate) RATE="$2" ;; --bytes) BYTES="$2" ;;
    --mode) MODE="$2" ;;
    *) sed -n '2,18p' "$0" >&2; exit 2 ;;
  esac
  shift 2
done
case "$PAIRING" in
  default) APACHE_EXTRA=""; KAAS_FLUSH=1000000000 ;;
  durable) APACHE_EXTRA="log.flush.interval.messages=1"; KAAS_FLUSH=1 ;;
  *) echo "unknown pairing: $PAIRING" >&2; exit 2 ;;
esac
cd "$ROOT"
OUT=target/perf-longpoll; A_PORT=39892; K_PORT=39992
rm -rf "$OUT"; mkdir -p "$OUT"
mvn -B -q package -DskipTests dependency:build-classpath -Dmdep.outputFile=target/perf-cp.txt \
    -Dmdep.includeScope=test -pl bootstrap -am >/dev/null
CP="bootstrap/target/test-classes:bootstrap/target/classes:$(cat bootstrap/target/perf-cp.txt)"

KAAS_PID=""
cleanup() {
  [ -n "$KAAS_PID" ] && { kill "$KAAS_PID" 2>/dev/null || true; wait "$KAAS_PID" 2>/dev/null || true; }
  bash "$PEER" stop "$OUT/apache" >/dev/null 2>&1 || true
}
trap cleanup EXIT
# shellcheck disable=SC2086
bash "$PEER" start "$A_PORT" "$OUT/apache" $APACHE_EXTRA >/dev/null
APACHE_PID=$(cat "$OUT/apache/pid")
KAAS_PORT=$K_PORT KAAS_DATA_DIR="$OUT/kaas-data" KAAS_FLUSH_INTERVAL_MESSAGES=$KAAS_FLUSH \
  KAAS_GROUP_INITIAL_REBALANCE_DELAY_MS=0 setsid java -Xmx1g -jar "${KAAS_JAR:-bootstrap/target/kaas.jar}" >"$OUT/kaas.log" 2>&1 &
KAAS_PID=$!
for _ in $(seq 1 100); do (exec 3<>/dev/tcp/127.0.0.1/"$K_PORT") 2>/dev/null && break; sleep 0.2; done

drive() { # side pass seconds warmup -> one JSON line
  local port pid
  if [ "$1" = apache ]; then port=$A_PORT; pid=$APACHE_PID; else port=$K_PORT; pid=$KAAS_PID; fi
  sync
  java -Xmx768m -Dbroker.pid="$pid" -cp "$CP" io.kaas.bootstrap.perf.LongPollPerf "127.0.0.1:$port" \
      "$3" "$CONSUMERS" "$PARTITIONS" "$RATE" "$BYTES" "$MODE" "$4" 2>>"$OUT/driver.log" \
    | sed "s/^{/{\"broker\":\"$1\",\"pass\":$2,\"pairing\":\"$PAIRING\",/"
}
for side in apache kaas; do # JIT, page cache, first connections: not counted
  drive "$side" 0 3 1 >>"$OUT/warmup.jsonl"
done
for pass in $(seq 1 "$PASSES"); do
  for side in apache kaas; do
    drive "$side" "$pass" "$SECONDS_MEASURED" "$WARMUP" | tee -a "$OUT/results.jsonl"
  done
done

python3 - "$OUT/results.jsonl" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
cols = ["broker_cpu_s", "broker_cpu_pct", "lat_p50_ms", "lat_p99_ms", "lat_p999_ms", "lat_max_ms", "fetches_per_s",
        "send_lag_p99_ms"]
print(f"{'pass':>4}  {'broker':<6}  " + "  ".join(f"{c:>14}" for c in cols) + "  samples/expected")
for r in rows:
    print(f"{r['pass']:>4}  {r['broker']:<6}  " + "  ".join(f"{(r[c] if r[c] is not None else float('nan')):>14.2f}" for c in cols)
          + f"  {r['samples']}/{r['expected_samples']}")
med = {s: [statistics.median(r[c] for r in rows if r["broker"] == s and r[c] is not None) for c in cols]
       for s in ("apache", "kaas") if any(r["broker"] == s for r in rows)}
for s, v in med.items():
    print(f"{'med':>4}  {s:<6}  " + "  ".join(f"{x:>14.2f}" for x in v))
if len(med) == 2:
    print(f"{'':>4}  {'kaas/A':<6}  " + "  ".join(f"{(k / a if a else float('nan')):>14.2f}" for a, k in zip(med["apache"], med["kaas"])))
PY
