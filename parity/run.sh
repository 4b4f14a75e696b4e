#!/usr/bin/env bash
# Runs every parity scenario (Apache Kafka 3.7's own shell tools, and clients not written in Java)
# against one broker and prints a table of PASS / FAIL / SKIP with the reason.
#   parity/run.sh --bootstrap HOST:PORT [--restart CMD] [--peer HOST:PORT [--peer-restart CMD] [--peer-only REGEX]
#                 [--peer-env FILE]] [--report FILE] [--only REGEX]
# --peer: run each scenario (or those --peer-only matches) against that broker too (Apache Kafka 3.7.2:
#   parity/broker.sh start apache ...) and print its result beside; the report's 4th and 5th columns hold
#   it ("-" where the peer did not run it). --only: 'client-.*' etc. --restart / --peer-restart: a command
#   that restarts that broker (e.g. 'parity/broker.sh restart DIR'), given to the scenarios as $RESTART_BROKER;
#   without it the scenarios that restart the broker skip. --peer-env: KEY=value lines (parity/security/setup.sh's
#   scenario.env of the peer's secured listeners) set for the peer's runs over what the environment holds.
# KAFKA_CP: Apache's tool classpath (default: resolved from parity/pom.xml with Maven, from Maven Central).
# Against Apache Kafka 3.7 itself every scenario should PASS: that is how the scenarios are checked.
set -uo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
BOOTSTRAP=""; PEER=""; REPORT=""; ONLY=""; RESTART=""; PEER_RESTART=""; PEER_ONLY=".*"; PEER_ENV=""
while [ $# -gt 0 ]; do
  case "$1" in
    --bootstrap) BOOTSTRAP="$2"; shift ;;
    --restart) RESTART="$2"; shift ;;
    --peer) PEER="$2"; shift ;;
    --peer-restart) PEER_RESTART="$2"; shift ;;
    --peer-only) PEER_ONLY="$2"; shift ;;
    --peer-env) PEER_ENV="$2"; shift ;;
    --report) REPORT="$2"; shift ;;
    --only) ONLY="$2"; shift ;;
    *) sed -n '2,13p' "$0" >&2; exit 2 ;;
  esac
  shift
done
[ -n "$BOOTSTRAP" ] || { sed -n '2,13p' "$0" >&2; exit 2; }
export JAVA="${JAVA:-java}"
export WORK="${WORK:-$(mktemp -d)}"
mkdir -p "$WORK"
if [ -z "${KAFKA_CP:-}" ]; then
  mvn -q -B -f "$HERE/pom.xml" dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile="$WORK/cp.txt" >&2 \
    || { echo "cannot resolve Apache Kafka's tool classpath" >&2; exit 2; }
  KAFKA_CP="$(cat "$WORK/cp.txt")"
fi
export KAFKA_CP

# api_versions BOOTSTRAP FILE: what the broker serves, as kafka-broker-api-versions prints it.
api_versions() {
  "$JAVA" -cp "$KAFKA_CP" kafka.admin.BrokerApiVersionsCommand --bootstrap-server "$1" > "$2" 2>/dev/null \
    || { echo "the broker at $1 does not answer ApiVersions" >&2; exit 2; }
}
api_versions "$BOOTSTRAP" "$WORK/api-versions.txt"
[ -z "$PEER" ] || { mkdir -p "$WORK/peer"; api_versions "$PEER" "$WORK/peer/api-versions.txt"; }

# run_scenario SCENARIO BOOTSTRAP DIR RESTART [ENV_FILE]: runs it (ENV_FILE's KEY=value lines over the
# environment), its log in DIR; sets RESULT and REASON.
run_scenario() {
  local name line
  name="$(basename "$1" .sh)"
  BOOTSTRAP="$2" APIS="$3/api-versions.txt" RESTART_BROKER="$4" \
    bash -c 'if [ -n "$1" ]; then set -a; . "$1"; set +a; fi; exec bash "$0"' "$1" "${5:-}" > "$3/$name.log" 2>&1
  line="$(grep -E '^RESULT: ' "$3/$name.log" | tail -n 1)"
  [ -n "$line" ] || line="RESULT: FAIL the scenario ended without a result (see $3/$name.log)"
  RESULT="$(awk '{print $2}' <<<"$line")"
  REASON="$(cut -d' ' -f3- <<<"$line")"
}

: > "${REPORT:=$WORK/report.tsv}"
[ -z "$PEER" ] || printf '%-44s %-6s %5s  %-6s %5s  %s\n' scenario here time peer time "reason here | peer: reason on the peer"
for scenario in "$HERE"/scenarios/*.sh; do
  name="$(basename "$scenario" .sh)"
  [ -z "$ONLY" ] || [[ "$name" =~ ^($ONLY)$ ]] || continue
  start=$(date +%s)
  run_scenario "$scenario" "$BOOTSTRAP" "$WORK" "$RESTART"
  took="$(( $(date +%s) - start ))s"
  if [ -z "$PEER" ]; then
    printf '%-44s %-5s %5s  %s\n' "$name" "$RESULT" "$took" "$REASON"
    printf '%s\t%s\t%s\n' "$name" "$RESULT" "$REASON" >> "$REPORT"
  else
    here="$RESULT"; why="$REASON"
    start=$(date +%s)
    if [[ "$name" =~ ^($PEER_ONLY)$ ]]; then
      run_scenario "$scenario" "$PEER" "$WORK/peer" "$PEER_RESTART" "$PEER_ENV"
      peer_took="$(( $(date +%s) - start ))s"
    else
      RESULT="-"; REASON=""; peer_took=""
    fi
    printf '%-44s %-6s %5s  %-6s %5s  %s\n' "$name" "$here" "$took" "$RESULT" "$peer_took" "$why${REASON:+ | peer: $REASON}"
    printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$here" "$why" "$RESULT" "$REASON" >> "$REPORT"
  fi
done
# tally COLUMN: "3 PASS, 1 SKIP" for a column of the report
tally() { awk -F'\t' -v c="$1" '$c != "" && $c != "-" { n[$c]++ } END { for (r in n) printf "%s%d %s", (s++ ? ", " : ""), n[r], r }' "$REPORT"; }
echo "here: $(tally 2)${PEER:+; peer: $(tally 4)}"
echo "logs: $WORK${PEER:+ (peer: $WORK/peer)}"
