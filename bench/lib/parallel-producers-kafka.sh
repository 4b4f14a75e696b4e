#!/usr/bin/env bash
# peer-kafka.sh for the harness (its KAFKA_SH), except that `tool org.apache.kafka.tools.ProducerPerformance ARGS`
# runs ARGS on $PRODUCERS producers in one JVM (bench/ParallelProducers.java). bench/run.sh --producers N sets it.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
PEER_KAFKA_SH="${PEER_KAFKA_SH:?the real peer-kafka.sh}"
if [ "${1:-}" = tool ] && [ "${2:-}" = org.apache.kafka.tools.ProducerPerformance ]; then
  shift 2
  CACHE="${KAAS_PEER_CACHE:-$HOME/.cache/kaas-peer}/3.7.2"
  exec java -Dlog4j.configuration="file:$CACHE/tools-log4j.properties" -cp "$("$PEER_KAFKA_SH" classpath)" \
    "$HERE/../ParallelProducers.java" "${PRODUCERS:?}" "$@"
fi
exec "$PEER_KAFKA_SH" "$@"
