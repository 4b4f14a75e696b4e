# Shared helpers for parity scenarios. A scenario is a bash script that drives one Apache Kafka 3.7
# shell tool, or one non-Java client (scenarios named client-*), against $BOOTSTRAP and ends with
# exactly one of:  pass | fail "why" | skip "why" | absent "why" (the client is not installed here).
# Environment (set by run.sh): BOOTSTRAP, KAFKA_CP (Apache's tool classpath), JAVA, WORK (scratch dir),
# APIS (file with the broker's ApiVersions as kafka-broker-api-versions prints it), RESTART_BROKER (a
# command that restarts that broker, or empty: see requires_restart).
set -uo pipefail

SCENARIO="$(basename "$0" .sh)"
PARITY_DIR="$(cd "$(dirname "$0")/.." && pwd)"
TOOL_TIMEOUT="${TOOL_TIMEOUT:-90}"
LOG4J="$WORK/tools-log4j.properties"
[ -f "$LOG4J" ] || printf 'log4j.rootLogger=ERROR, e\nlog4j.appender.e=org.apache.log4j.ConsoleAppender\nlog4j.appender.e.Target=System.err\nlog4j.appender.e.layout=org.apache.log4j.PatternLayout\nlog4j.appender.e.layout.ConversionPattern=%%p %%m%%n\n' > "$LOG4J"

pass() { echo "RESULT: PASS"; exit 0; }
fail() { echo "RESULT: FAIL $*"; exit 0; }
skip() { echo "RESULT: SKIP $*"; exit 0; }
absent() { echo "RESULT: ABSENT $*"; exit 0; }

# requires_program NAME INSTALL: absent unless NAME is on the PATH (INSTALL says how to get it).
requires_program() { command -v "$1" >/dev/null || absent "$1 is not installed here ($2)"; }

# program CMD ARGS...: like tool, for a non-Java client program.
program() {
  echo "\$ $*"
  OUT="$(timeout "$TOOL_TIMEOUT" "$@" 2>&1 < "${STDIN:-/dev/null}")"
  RC=$?
  printf '%s\n' "$OUT" | head -n "${SHOW_LINES:-25}" | sed 's/^/    | /'
}

# requires_restart: skip unless run.sh was given a hook that restarts this broker: $RESTART_BROKER, a command
# run with one argument, graceful (SIGTERM) or kill (SIGKILL), that returns once the broker answers again.
requires_restart() {
  [ -n "${RESTART_BROKER:-}" ] || skip "no hook to restart this broker (run.sh --restart CMD / --peer-restart CMD)"
}

# requires_confluent_kafka: PY names the python (PARITY_PYTHON, default Debian's) that has confluent-kafka-python;
# absent where it does not.
requires_confluent_kafka() {
  PY="${PARITY_PYTHON:-/usr/bin/python3}"
  "$PY" -c 'import confluent_kafka' 2>/dev/null \
    || absent "confluent-kafka-python is not installed for $PY (apt-get install python3-confluent-kafka)"
}

# confluent_kafka_program PROGRAM ARGS...: runs parity/clients/PROGRAM (HOST:PORT and a unique suffix
# first) with librdkafka through Debian's confluent-kafka-python; fails with the program's own FAILED line
# unless it printed ALL CHECKS PASSED; absent where the client is not installed.
confluent_kafka_program() {
  local script="$1"; shift
  requires_confluent_kafka
  SHOW_LINES="${SHOW_LINES:-60}" program "$PY" "$PARITY_DIR/clients/$script" "$BOOTSTRAP" "$$" "$@"
  expect_ok "$(grep -m1 '^FAILED' <<<"$OUT" || echo "exit status $RC")"
  expect "^ALL CHECKS PASSED$"
}

# confluent_kafka_check CHECK [ARGS]: one check of parity/clients/confluent_kafka_conformance.py.
confluent_kafka_check() { confluent_kafka_program confluent_kafka_conformance.py "$@"; }

# kafkajs_check CHECK: one check of parity/clients/kafkajs/conformance.js.
kafkajs_check() {
  requires_program node "apt-get install nodejs"
  [ -d "$PARITY_DIR/clients/kafkajs/node_modules/kafkajs" ] \
    || absent "KafkaJS is not installed here (npm ci --prefix parity/clients/kafkajs)"
  SHOW_LINES="${SHOW_LINES:-60}" program node "$PARITY_DIR/clients/kafkajs/conformance.js" "$BOOTSTRAP" "$$" "$@"
  expect_ok "$(grep -m1 '^FAILED' <<<"$OUT" || echo "exit status $RC")"
  expect "^ALL CHECKS PASSED$"
}

# same_as_apache: the "OUTCOME: what: answer" lines of the last program (the answers a broker chooses:
# error codes, config sources) must be those Apache Kafka 3.7.2 gave, recorded in
# parity/outcomes/$SCENARIO.txt. PARITY_RECORD_OUTCOMES=1, in a run against Apache, records them.
# parity/outcomes/$SCENARIO.deviations lists kaas's deliberate answers ("what: answer" lines, each
# under a "# why" comment): such a line counts as Apache's recorded answer for the same "what".
same_as_apache() {
  local recorded="$PARITY_DIR/outcomes/$SCENARIO.txt" deviations="$PARITY_DIR/outcomes/$SCENARIO.deviations" got differ
  got="$(sed -n 's/^OUTCOME: //p' <<<"$OUT")"
  if [ -f "$deviations" ] && [ -f "$recorded" ]; then
    got="$(awk -v recorded="$recorded" '
      FNR == NR { if ($0 !~ /^#/ && $0 != "") deliberate[$0] = 1; next }
      FILENAME == recorded { apache[substr($0, 1, index($0, ": "))] = $0; next }
      { what = substr($0, 1, index($0, ": ")); print (($0 in deliberate) && (what in apache)) ? apache[what] : $0 }
    ' "$deviations" "$recorded" - <<<"$got")"
  fi
  if [ "${PARITY_RECORD_OUTCOMES:-}" = 1 ]; then
    mkdir -p "$(dirname "$recorded")" && printf '%s\n' "$got" > "$recorded"
    return
  fi
  [ -f "$recorded" ] || fail "no answers recorded from Apache Kafka 3.7.2 in $recorded"
  differ="$(diff "$recorded" <(printf '%s\n' "$got"))" || {
    printf '%s\n' "$differ" | sed 's/^/    /'
    local here apache
    here="$(grep -m1 '^>' <<<"$differ" | cut -c3-)"; apache="$(grep -m1 '^<' <<<"$differ" | cut -c3-)"
    fail "answers differ from Apache 3.7.2's: ${here:-(nothing)} where Apache answered ${apache:-(nothing)}"
  }
}

# tool CLASS ARGS... : runs an Apache tool main class; its stdout+stderr land in $OUT, its status in $RC.
tool() {
  local cls="$1"; shift
  echo "\$ ${cls##*.} $*"
  OUT="$(timeout "$TOOL_TIMEOUT" "$JAVA" -Xms64m -Xmx512m -XX:TieredStopAtLevel=1 -Dlog4j.configuration="file:$LOG4J" \
        -cp "$KAFKA_CP" "$cls" "$@" 2>&1 < "${STDIN:-/dev/null}")"
  RC=$?
  printf '%s\n' "$OUT" | head -n "${SHOW_LINES:-25}" | sed 's/^/    | /'
}

# expect REGEX [why]: the last tool's output must match (grep -E, multi-line).
expect() { grep -qE -- "$1" <<<"$OUT" || fail "${2:-expected /$1/ in the output}"; }
# expect_not REGEX [why]
expect_not() { ! grep -qE -- "$1" <<<"$OUT" || fail "${2:-did not expect /$1/ in the output}"; }
# expect_ok [why]: the last tool exited 0
expect_ok() { [ "$RC" = 0 ] || fail "${1:-exit status $RC}"; }
# count REGEX: lines of the last output matching
count() { grep -cE -- "$1" <<<"$OUT" || true; }

# requires_api NAME WHY: skip unless the broker serves the API (as kafka-broker-api-versions names it).
requires_api() {
  grep -qE "^\s*$1\([0-9]+\): [0-9]" "$APIS" || skip "$2 (the broker does not serve $1)"
}

# requires_secure_listener VAR...: skip unless this broker's secured listeners were handed over (the variables
# of parity/security/setup.sh's scenario.env, for the broker at $BOOTSTRAP) and each VAR is among them.
requires_secure_listener() {
  [ "${SECURE_LISTENERS_OF:-}" = "$BOOTSTRAP" ] \
    || skip "no SASL_SSL listeners of this broker were given (parity/security/setup.sh prepares them)"
  local var
  for var in "$@"; do [ -n "${!var:-}" ] || skip "$var is not set"; done
}

# allow_prefix PRINCIPAL PREFIX: every operation on the topics and groups named PREFIX..., granted through
# the plaintext listener (whose principal the parity broker makes a super user).
allow_prefix() {
  tool kafka.admin.AclCommand --bootstrap-server "$BOOTSTRAP" --add --allow-principal "$1" --operation All \
    --topic "$2" --group "$2" --resource-pattern-type prefixed
  expect_ok "could not grant $1 the ACLs on $2..."
}

# mint_jwt SUBJECT EXPIRES_IN_SECONDS: an RS256 JWT from the parity issuer (OAUTH_ISSUER, OAUTH_KEY_ID,
# OAUTH_SIGNING_KEY), as an identity provider would issue it; a negative lifetime gives an expired one.
mint_jwt() {
  local exp header payload signature
  exp=$(( $(date +%s) + $2 ))
  header="$(printf '{"alg":"RS256","typ":"JWT","kid":"%s"}' "$OAUTH_KEY_ID" | b64url)"
  payload="$(printf '{"iss":"%s","sub":"%s","iat":%d,"exp":%d}' "$OAUTH_ISSUER" "$1" $((exp - 3600)) "$exp" | b64url)"
  signature="$(printf '%s.%s' "$header" "$payload" | openssl dgst -sha256 -binary -sign "$OAUTH_SIGNING_KEY" | b64url)"
  echo "$header.$payload.$signature"
}
b64url() { base64 -w0 | tr '+/' '-_' | tr -d '='; }

# A topic name unique to this scenario run.
topic_name() { echo "parity-${SCENARIO}-$1-$$"; }

# Common tool shorthands.
topics() { tool org.apache.kafka.tools.TopicCommand --bootstrap-server "$BOOTSTRAP" "$@"; }
create_topic() { topics --create --topic "$1" --partitions "${2:-1}" --replication-factor 1 >/dev/null; [ "$RC" = 0 ] || fail "could not create topic $1"; }
produce_lines() { # topic count [prefix]
  seq 1 "$2" | sed "s/^/${3:-line}-/" > "$WORK/$1.in"
  STDIN="$WORK/$1.in" tool kafka.tools.ConsoleProducer --bootstrap-server "$BOOTSTRAP" --topic "$1" --producer-property acks=all
  [ "$RC" = 0 ] || fail "console producer failed for $1"
}
