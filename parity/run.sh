#!/usr/bin/env bash
# Runs every parity scenario (Apache Kafka 3.7's own shell tools) against one broker and prints a
# table of PASS / FAIL / SKIP with the reason.
#   parity/run.sh --bootstrap HOST:PORT [--report FILE] [--only NAME]
# KAFKA_CP: Apache's tool classpath (default: resolved from parity/pom.xml with Maven, from Maven Central).
# Against Apache Kafka 3.7 itself every scenario should PASS: that is how the scenarios are checked.
set -uo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
BOOTSTRAP=""; REPORT=""; ONLY=""
while [ $# -gt 0 ]; do
  case "$1" in
    --bootstrap) BOOTSTRAP="$2"; shift ;;
    --report) REPORT="$2"; shift ;;
    --only) ONLY="$2"; shift ;;
    *) sed -n '2,7p' "$0" >&2; exit 2 ;;
  esac
  shift
done
[ -n "$BOOTSTRAP" ] || { sed -n '2,7p' "$0" >&2; exit 2; }
export BOOTSTRAP
export JAVA="${JAVA:-java}"
export WORK="${WORK:-$(mktemp -d)}"
mkdir -p "$WORK"
if [ -z "${KAFKA_CP:-}" ]; then
  mvn -q -B -f "$HERE/pom.xml" dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile="$WORK/cp.txt" >&2 \
    || { echo "cannot resolve Apache Kafka's tool classpath" >&2; exit 2; }
  KAFKA_CP="$(cat "$WORK/cp.txt")"
fi
export KAFKA_CP
export APIS="$WORK/api-versions.txt"
"$JAVA" -cp "$KAFKA_CP" kafka.admin.BrokerApiVersionsCommand --bootstrap-server "$BOOTSTRAP" > "$APIS" 2>/dev/null \
  || { echo "the broker at $BOOTSTRAP does not answer ApiVersions" >&2; exit 2; }

: > "${REPORT:=$WORK/report.tsv}"
for scenario in "$HERE"/scenarios/*.sh; do
  name="$(basename "$scenario" .sh)"
  [ -z "$ONLY" ] || [ "$name" = "$ONLY" ] || continue
  start=$(date +%s)
  bash "$scenario" > "$WORK/$name.log" 2>&1
  line="$(grep -E '^RESULT: ' "$WORK/$name.log" | tail -n 1)"
  [ -n "$line" ] || line="RESULT: FAIL the scenario ended without a result (see $WORK/$name.log)"
  result="$(awk '{print $2}' <<<"$line")"
  reason="$(cut -d' ' -f3- <<<"$line")"
  printf '%-32s %-5s %4ss  %s\n' "$name" "$result" "$(( $(date +%s) - start ))" "$reason"
  printf '%s\t%s\t%s\n' "$name" "$result" "$reason" >> "$REPORT"
done
echo "logs: $WORK"
