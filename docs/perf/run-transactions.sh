#!/usr/bin/env bash
# Transactional-produce benchmark: transactions of 100 records of 100 B (begin, 100 sends, commit) back
# to back for N seconds, with 1 and 4 producers; committed transactions/s and commitTransaction() latency
# p50/p99. kaas against Apache Kafka 3.7.2 on this machine, driven by the same client code
# (bootstrap/src/test/java/io/kaas/bootstrap/perf/TxnPerf.java), alternating passes. Three brokers: Apache
# as configured by default (an acknowledged append is in the page cache), Apache with
# log.flush.interval.messages=1 (fsynced, like kaas), and kaas.
#   docs/perf/run-transactions.sh [passes] [seconds]     (defaults 3, 15)
# Needs ../shared/tools/peer-kafka.sh. Prints one JSON line per scenario and broker; results go to
# target/perf-txn/results.jsonl.
set -euo pipefail
cd "$(dirname "$0")/../.."
PASSES="${1:-3}"; SECONDS_PER_RUN="${2:-15}"
PEER="$(cd .. && pwd)/shared/tools/peer-kafka.sh"
OUT=target/perf-txn; rm -rf "$OUT"; mkdir -p "$OUT"
mvn -B -q -o package -DskipTests dependency:build-classpath -Dmdep.outputFile=target/perf-cp.txt \
    -Dmdep.includeScope=test -pl bootstrap -am >/dev/null
CP="bootstrap/target/test-classes:bootstrap/target/classes:$(cat bootstrap/target/perf-cp.txt)"

A_PORT=39592; F_PORT=39692; K_PORT=39792
start_apache() {
  bash "$PEER" start "$A_PORT" "$OUT/apache" >/dev/null
  bash "$PEER" start "$F_PORT" "$OUT/apache-fsync" log.flush.interval.messages=1 >/dev/null
}
stop_apache() { bash "$PEER" stop "$OUT/apache"; bash "$PEER" stop "$OUT/apache-fsync"; }
start_kaas() {
  KAAS_PORT=$K_PORT KAAS_DATA_DIR="$OUT/kaas-data" setsid java -jar bootstrap/target/kaas.jar >"$OUT/kaas.log" 2>&1 &
  echo $! >"$OUT/kaas.pid"
  for _ in $(seq 1 100); do (exec 3<>/dev/tcp/127.0.0.1/$K_PORT) 2>/dev/null && return; sleep 0.2; done
  echo "kaas did not start" >&2; exit 1
}
stop_kaas() { kill "$(cat "$OUT/kaas.pid")"; wait "$(cat "$OUT/kaas.pid")" 2>/dev/null || true; }
trap 'stop_kaas 2>/dev/null || true; stop_apache 2>/dev/null || true' EXIT

start_apache; start_kaas
for pass in $(seq 1 "$PASSES"); do
  for producers in 1 4; do
    for side in apache apache-fsync kaas; do
      case "$side" in apache) port=$A_PORT ;; apache-fsync) port=$F_PORT ;; kaas) port=$K_PORT ;; esac
      sync
      java -cp "$CP" io.kaas.bootstrap.perf.TxnPerf "127.0.0.1:$port" "$SECONDS_PER_RUN" "$producers" 100 100 \
          2>>"$OUT/driver.log" | sed "s/^{/{\"broker\":\"$side\",\"pass\":$pass,/" | tee -a "$OUT/results.jsonl"
    done
  done
done
