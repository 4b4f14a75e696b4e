#!/usr/bin/env bash
# Consume benchmark with the client's view of the broker: one topic of 800,000 x 1 KiB records
# (6 partitions) on each broker, then Apache's ConsumerPerformance reads it from the beginning,
# alternating Apache / kaas, each pass a new group. Per pass: records/s while fetching (the group
# join excluded), the consumer's fetch-latency-avg (time from fetch request to response, i.e. the
# broker's share) and fetch-size-avg, and the broker's CPU seconds.
#   docs/perf/run-consume.sh [passes]     (default 5)
# Needs ../shared/tools/peer-kafka.sh and bootstrap/target/kaas.jar. Prints a table with medians.
set -euo pipefail
cd "$(dirname "$0")/../.."
PASSES="${1:-5}"
PEER="$(cd .. && pwd)/shared/tools/peer-kafka.sh"
OUT=target/perf-consume; rm -rf "$OUT"; mkdir -p "$OUT"
[ -f bootstrap/target/kaas.jar ] || mvn -B -q -DskipTests package -pl bootstrap -am
A=127.0.0.1:39094; B=127.0.0.1:39294

bash "$PEER" start 39094 "$OUT/apache" >/dev/null
KAAS_PORT=39294 KAAS_DATA_DIR="$OUT/kaas-data" KAAS_FLUSH_INTERVAL_MESSAGES=1000000000 \
  KAAS_GROUP_INITIAL_REBALANCE_DELAY_MS=0 setsid java -Xmx1g -jar bootstrap/target/kaas.jar >"$OUT/kaas.log" 2>&1 &
KAAS_PID=$!
trap 'kill $KAAS_PID 2>/dev/null || true; bash "$PEER" stop "$OUT/apache" >/dev/null 2>&1 || true' EXIT
for _ in $(seq 1 100); do (exec 3<>/dev/tcp/127.0.0.1/39294) 2>/dev/null && break; sleep 0.2; done
APACHE_PID=$(cat "$OUT/apache/pid")

for b in $A $B; do
  bash "$PEER" tool org.apache.kafka.tools.TopicCommand --bootstrap-server $b --create --topic c1k \
    --partitions 6 --replication-factor 1 >/dev/null
  bash "$PEER" tool org.apache.kafka.tools.ProducerPerformance --topic c1k --num-records 800000 \
    --record-size 1024 --throughput -1 --producer-props bootstrap.servers=$b acks=1 >/dev/null
done
sync

cpu() { awk '{print $14+$15}' "/proc/$1/stat"; }
for pass in $(seq 1 "$PASSES"); do
  for side in apache kaas; do
    if [ $side = apache ]; then b=$A; pid=$APACHE_PID; else b=$B; pid=$KAAS_PID; fi
    c0=$(cpu "$pid")
    bash "$PEER" tool org.apache.kafka.tools.ConsumerPerformance --bootstrap-server $b --topic c1k \
      --messages 800000 --group "pass$pass-$side" --timeout 10000 --print-metrics >"$OUT/$side-$pass.log" 2>/dev/null
    c1=$(cpu "$pid")
    python3 - "$OUT/$side-$pass.log" "$side" "$pass" "$(( c1 - c0 ))" "$(getconf CLK_TCK)" <<'PY' >>"$OUT/results.tsv"
import re, sys
text = open(sys.argv[1]).read()
row = [l for l in text.splitlines() if l.startswith("20")][-1].split(", ")
metric = lambda name: float(re.search(r"fetch-manager-metrics:" + name + r":\{client-id=[^}]*\}\s*:\s*([0-9.]+)", text).group(1))
print("\t".join([sys.argv[2], sys.argv[3], row[9], str(metric("fetch-latency-avg")), str(metric("fetch-size-avg")),
                 str(int(sys.argv[4]) / int(sys.argv[5]))]))
PY
  done
done

python3 - "$OUT/results.tsv" <<'PY'
import statistics, sys
rows = [l.split("\t") for l in open(sys.argv[1]).read().splitlines()]
cols = ["fetch records/s", "fetch-latency-avg ms", "fetch-size-avg B", "broker cpu s"]
print("pass  broker  " + "  ".join(f"{c:>20}" for c in cols))
for r in rows:
    print(f"{r[1]:>4}  {r[0]:<6}  " + "  ".join(f"{float(v):>20,.1f}" for v in r[2:]))
med = {s: [statistics.median(float(r[i]) for r in rows if r[0] == s) for i in range(2, 6)] for s in ("apache", "kaas")}
print("median  apache  " + "  ".join(f"{v:>20,.1f}" for v in med["apache"]))
print("median  kaas    " + "  ".join(f"{v:>20,.1f}" for v in med["kaas"]))
print("kaas/apache     " + "  ".join(f"{k / a:>20.2f}" for a, k in zip(med["apache"], med["kaas"])))
PY
