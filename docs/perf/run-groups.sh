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
PASSES="${1:-2}"; ROUNDS="${2:-7}"; SECONDS_PER_COMMIT_RUN="${3:-10}"
OUT=target/perf-groups; A_PORT=39292; F_PORT=39492; K_PORT=39392
KAAS_ENV="KAAS_GROUP_INITIAL_REBALANCE_DELAY_MS=0"
. "$(dirname "$0")/three-brokers.sh"
for pass in $(seq 1 "$PASSES"); do
  for side in apache apache-fsync kaas; do
    port=$(broker_port "$side")
    sync
    java -cp "$CP" io.kaas.bootstrap.perf.GroupPerf "127.0.0.1:$port" "$ROUNDS" "$SECONDS_PER_COMMIT_RUN" 2>>"$OUT/driver.log" \
      | sed "s/^{/{\"broker\":\"$side\",\"pass\":$pass,/" | tee -a "$OUT/results.jsonl"
  done
done
