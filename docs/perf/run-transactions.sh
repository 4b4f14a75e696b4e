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
PASSES="${1:-3}"; SECONDS_PER_RUN="${2:-15}"
OUT=target/perf-txn; A_PORT=39592; F_PORT=39692; K_PORT=39792
. "$(dirname "$0")/three-brokers.sh"
for pass in $(seq 1 "$PASSES"); do
  for producers in 1 4; do
    for side in apache apache-fsync kaas; do
      port=$(broker_port "$side")
      sync
      java -cp "$CP" io.kaas.bootstrap.perf.TxnPerf "127.0.0.1:$port" "$SECONDS_PER_RUN" "$producers" 100 100 \
          2>>"$OUT/driver.log" | sed "s/^{/{\"broker\":\"$side\",\"pass\":$pass,/" | tee -a "$OUT/results.jsonl"
    done
  done
done
