#!/usr/bin/env bash
# The end-to-end benchmark: kaas against Apache Kafka 3.7.2 (KRaft, one node, from the Maven Central jars),
# both on loopback on this machine, driven by Apache's own perf tools with identical client settings,
# alternating runs, medians and kaas/Apache ratios. Pairings:
#   durable:  Apache with log.flush.interval.messages=1 (fsync per append)  vs  kaas (KAAS_FLUSH_INTERVAL_MESSAGES=1)
#   default:  Apache with its defaults (page cache, no fsync)               vs  kaas with a large flush interval
#   promise:  Apache with its defaults (no fsync)  vs  kaas as it ships (an fsync behind every acks=all answer),
#             the comparison users make (issue 15); KAAS_LOG_JOURNAL=true in the environment is passed on to kaas
#   journal:  kaas with an fsync per partition file (A)  vs  kaas with the log journal (B), both flush interval 1
# Scenarios per pass (the shared harness): produce 1 KiB acks=all, consume from the beginning, produce 100 B
# acks=all, fixed-rate end-to-end latency. Results land in docs/perf/<date>-<pairing>[-journal][-pN][-Nproducers].md.
#   bench/run.sh [--pairing durable|default|promise|journal|both] [--rounds N] [--quick] [--partitions N] [--producers N]
# (both: durable and default). --partitions: of every scenario's topic (default 6); --producers: the two produce
# scenarios split their records over N producers in one client JVM (bench/ParallelProducers.java; default: one
# ProducerPerformance). -journal in the name: KAAS_LOG_JOURNAL=true.
# Needs ../shared/tools/perf (the benchmark harness and the Apache launcher), Java 17, Maven, python3.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
PERF="${PERF:-$ROOT/../shared/tools/perf}"
PAIRING=both; ROUNDS=1; QUICK=""; PARTITIONS_OPT=""; PRODUCERS_OPT=""
while [ $# -gt 0 ]; do
  case "$1" in
    --pairing) PAIRING="$2"; shift ;;
    --rounds) ROUNDS="$2"; shift ;;
    --quick) QUICK=--quick ;;
    --partitions) PARTITIONS_OPT="$2"; shift ;;
    --producers) PRODUCERS_OPT="$2"; shift ;;
    *) sed -n '2,14p' "$0" >&2; exit 2 ;;
  esac
  shift
done
[ -x "$PERF/compare.sh" ] || { echo "the benchmark harness is missing: $PERF/compare.sh" >&2; exit 2; }
cd "$ROOT"
[ -f bootstrap/target/kaas.jar ] || mvn -B -q -DskipTests package -pl bootstrap -am
KAAS_PORT=39292
LARGE_FLUSH=1000000000
SHAPE=""  # the report name's suffix and the options that made it
if [ "${KAAS_LOG_JOURNAL:-false}" = true ]; then SHAPE="-journal"; fi
if [ -n "$PARTITIONS_OPT" ]; then export PARTITIONS="$PARTITIONS_OPT"; SHAPE="$SHAPE-p$PARTITIONS_OPT"; fi
if [ -n "$PRODUCERS_OPT" ]; then
  # the harness runs its tools through KAFKA_SH: this one swaps ProducerPerformance for N producers in one JVM
  export PEER_KAFKA_SH="$PERF/../peer-kafka.sh" PRODUCERS="$PRODUCERS_OPT" KAFKA_SH="$ROOT/bench/lib/parallel-producers-kafka.sh"
  SHAPE="$SHAPE-${PRODUCERS_OPT}producers"
fi

kaas_start() { # port data-dir flush journal (its health port: port + 1)
  echo "rm -rf $2 && KAAS_PORT=$1 KAAS_HEALTH_PORT=$(($1 + 1)) KAAS_DATA_DIR=$2 KAAS_FLUSH_INTERVAL_MESSAGES=$3 KAAS_LOG_JOURNAL=$4 KAAS_GROUP_INITIAL_REBALANCE_DELAY_MS=0 java -Xmx1g -jar $ROOT/bootstrap/target/kaas.jar"
}

# A kaas stop command: first the broker's count of acks=all answers sent before an fsync covered them (the promise
# broken; there must be none), into OUT/SIDE-acks-before-sync.txt for the report, and its fsync histograms, appended
# to OUT/SIDE-fsync.txt (one scrape per broker run: bench/lib/fsync_summary.py sums them), then its data goes.
kaas_stop() { # port data-dir out side
  local scrape="curl -sf http://127.0.0.1:$(($1 + 1))/metrics"
  echo "$scrape | grep -E '^kaas_produce_acks_before_sync' > $3/$4-acks-before-sync.txt;" \
    "$scrape | grep -E '^kaas_log_fsync_duration_seconds' >> $3/$4-fsync.txt; rm -rf $2"
}

run_pairing() { # name apache-extra kaas-flush
  local name="$1" apache="$2" flush="$3" out
  out="$(mktemp -d "/tmp/kaas-bench-$name-XXXX")"
  local a_start="rm -rf /tmp/kaas-bench-apache && $PERF/../peer-kafka.sh start 39092 /tmp/kaas-bench-apache $apache"
  local b_start; b_start="$(kaas_start "$KAAS_PORT" /tmp/kaas-bench-kaas "$flush" "${KAAS_LOG_JOURNAL:-false}")"
  "$PERF/compare.sh" $QUICK --rounds "$ROUNDS" --out "$out" \
    --a-name "Apache Kafka 3.7.2 ($([ -n "$apache" ] && echo "$apache" || echo defaults))" \
    --a-start "$a_start" --a-stop "$PERF/../peer-kafka.sh stop /tmp/kaas-bench-apache; rm -rf /tmp/kaas-bench-apache" \
    --a-bootstrap 127.0.0.1:39092 \
    --b-name "kaas (KAAS_FLUSH_INTERVAL_MESSAGES=$flush, KAAS_LOG_JOURNAL=${KAAS_LOG_JOURNAL:-false})" --b-start "$b_start" \
    --b-stop "$(kaas_stop "$KAAS_PORT" /tmp/kaas-bench-kaas "$out" B)" --b-bootstrap "127.0.0.1:$KAAS_PORT"
  report "$name" "$out" "$a_start" "$b_start"
}

# kaas against kaas: the per-partition fsync path (A) and the log journal (B) in one alternation
run_journal_pairing() {
  local out a_start b_start
  out="$(mktemp -d "/tmp/kaas-bench-journal-XXXX")"
  a_start="$(kaas_start 39392 /tmp/kaas-bench-kaas-a 1 false)"
  b_start="$(kaas_start "$KAAS_PORT" /tmp/kaas-bench-kaas 1 true)"
  "$PERF/compare.sh" $QUICK --rounds "$ROUNDS" --out "$out" \
    --a-name "kaas (KAAS_FLUSH_INTERVAL_MESSAGES=1, per-partition fsync)" --a-start "$a_start" \
    --a-stop "$(kaas_stop 39392 /tmp/kaas-bench-kaas-a "$out" A)" --a-bootstrap 127.0.0.1:39392 \
    --b-name "kaas (KAAS_FLUSH_INTERVAL_MESSAGES=1, KAAS_LOG_JOURNAL=true)" --b-start "$b_start" \
    --b-stop "$(kaas_stop "$KAAS_PORT" /tmp/kaas-bench-kaas "$out" B)" --b-bootstrap "127.0.0.1:$KAAS_PORT"
  report journal "$out" "$a_start" "$b_start"
}

report() { # name outdir a-start b-start
  local file="docs/perf/$(date +%Y-%m-%d)-$1$SHAPE.md"
  {
    echo "# kaas vs Apache Kafka 3.7.2 — $1 pairing, $(date -u +%Y-%m-%dT%H:%MZ)"
    echo
    echo "Machine: $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)), $(free -g | awk '/Mem:/ {print $2}') GiB RAM,"
    echo "disk: $(df -h "$ROOT" | awk 'NR==2 {print $1 " (" $2 ")"}'), $(findmnt -no FSTYPE -T "$ROOT" 2>/dev/null || echo '?'); Java: $(java -version 2>&1 | head -1)."
    echo "kaas commit: $(git rev-parse --short HEAD)$(git diff --quiet || echo ' (with local changes)')."
    echo
    echo "Command: \`$([ "${KAAS_LOG_JOURNAL:-false}" = true ] && echo 'KAAS_LOG_JOURNAL=true ')bench/run.sh --pairing $1 --rounds $ROUNDS $QUICK$([ -n "$PARTITIONS_OPT" ] && echo " --partitions $PARTITIONS_OPT")$([ -n "$PRODUCERS_OPT" ] && echo " --producers $PRODUCERS_OPT")\`, which runs \`../shared/tools/perf/compare.sh\` with"
    echo "- A: \`$3\`"
    echo "- B: \`$4\`"
    echo
    echo "B/A is $([ "$1" = journal ] && echo 'kaas with the journal over kaas without' || echo 'kaas over Apache'): above 1 is better for throughput (records/s, MB/s), below 1 for latency and CPU."
    echo "Read the noise floor in ../shared/tools/perf/README.md before trusting a ratio."
    echo
    echo '```'
    cat "$2/summary.txt"
    echo '```'
    for side in A B; do
      [ -f "$2/$side-acks-before-sync.txt" ] || continue
      echo
      echo "$side's acks=all answers sent before an fsync covered them, over the whole run (there must be none):"
      echo "\`$(tr '\n' ' ' < "$2/$side-acks-before-sync.txt" | sed 's/ *$//')\`"
    done
    for side in A B; do
      [ -s "$2/$side-fsync.txt" ] || continue
      echo
      echo "$side's fsyncs over every run of it (kaas_log_fsync_duration_seconds, by log):"
      echo '```'
      python3 "$ROOT/bench/lib/fsync_summary.py" "$2/$side-fsync.txt"
      echo '```'
    done
  } > "$file"
  echo "wrote $file" >&2
}

case "$PAIRING" in
  durable) run_pairing durable "log.flush.interval.messages=1" 1 ;;
  default) run_pairing default "" "$LARGE_FLUSH" ;;
  promise) run_pairing promise "" 1 ;;
  journal) SHAPE="${SHAPE#-journal}"; run_journal_pairing ;;
  both) run_pairing durable "log.flush.interval.messages=1" 1; run_pairing default "" "$LARGE_FLUSH" ;;
  *) echo "unknown pairing: $PAIRING" >&2; exit 2 ;;
esac
