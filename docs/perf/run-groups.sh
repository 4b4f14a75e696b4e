#!/usr/bin/env bash
# Consumer-group benchmark: rebalance latency (1, 10, 100 members) and OffsetCommit throughput per
# group (1 and 16 committers), kaas against Apache Kafka 3.7.2 on this machine, driven by the same
# client code (bootstrap/src/test/java/io/kaas/bootstrap/perf/GroupPerf.java), alternating passes.
# Three brokers: Apache as configured by default (a commit is in the page cache when acknowledged),
# Apache with log.flush.interval.messages=1 (fsynced, like kaas), and kaas.
#   docs/perf/run-groups.sh [passes] [rounds] [commit-seconds]     (defaults 2, 7, 10)
# Needs ../shared/tools/peer-kafka.sh. Prints one JSON line per scenario and broker; results go to
# target/perf-groups/results.jsonl.
set -euo pipefail
cd "$(dirname "$0")/../.."
PASSES="${1:-2}"; ROUNDS="${2:-7}"; SECONDS_PER_COMMIT_RUN="${3:-10}"
PEER="$(cd .. && pwd)/shared/tools/peer-kafka.sh"
OUT=target/perf-groups; rm -rf "$OUT"; mkdir -p "$OUT"
mvn -B -q -o package -DskipTests dependency:build-classpath -Dmdep.outputFile=target/perf-cp.txt \
    -Dmdep.includeScope=test -pl bootstrap -am >/dev/null
CP="bootstrap/target/test-classes:bootstrap/target/classes:$(cat bootstrap/target/perf-cp.txt)"

A_PORT=39292; B_PORT=39392; F_PORT=39492
start_apache() {
  bash "$PEER" start "$A_PORT" "$OUT/apache" >/dev/null
  bash "$PEER" start "$F_PORT" "$OUT/apache-fsync" log.flush.interval.messages=1 >/dev/null
}
stop_apache() { bash "$PEER" stop "$OUT/apache"; bash "$PEER" stop "$OUT/apache-fsync"; }
start_kaas() {
  KAAS_PORT=$B_PORT KAAS_DATA_DIR="$OUT/kaas-data" KAAS_GROUP_INITIAL_REBALANCE_DELAY_MS=0 \
    setsid java -jar bootstrap/target/kaas.jar >"$OUT/kaas.log" 2>&1 &
  echo $! >"$OUT/kaas.pid"
  for _ in $(seq 1 100); do (exec 3<>/dev/tcp/127.0.0.1/$B_PORT) 2>/dev/null && return; sleep 0.2; done
  echo "kaas did not start" >&2; exit 1
}
stop_kaas() { kill "$(cat "$OUT/kaas.pid")"; wait "$(cat "$OUT/kaas.pid")" 2>/dev/null || true; }
trap 'stop_kaas 2>/dev/null || true; stop_apache 2>/dev/null || true' EXIT

start_apache; start_kaas
for pass in $(seq 1 "$PASSES"); do
  for side in apache apache-fsync kaas; do
    case "$side" in apache) port=$A_PORT ;; apache-fsync) port=$F_PORT ;; kaas) port=$B_PORT ;; esac
    sync
    java -cp "$CP" io.kaas.bootstrap.perf.GroupPerf "127.0.0.1:$port" "$ROUNDS" "$SECONDS_PER_COMMIT_RUN" 2>>"$OUT/driver.log" \
      | sed "s/^{/{\"broker\":\"$side\",\"pass\":$pass,/" | tee -a "$OUT/results.jsonl"
  done
done
