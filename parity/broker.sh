#!/usr/bin/env bash
# Starts, restarts and stops the brokers the parity suite runs against: local processes on 127.0.0.1
# whose data stays in DIR, so a restart brings the same broker back with everything it had.
#   parity/broker.sh start kaas PORT DIR      kaas from $KAAS_JAR, configured as ShellToolParityIT runs it
#   parity/broker.sh start apache PORT DIR    Apache Kafka 3.7.2 (KRaft, one node, controller on PORT+1)
#                                             from $KAFKA_CP, configured to match (same group and ACL settings)
#   parity/broker.sh restart DIR [graceful|kill]  SIGTERM and wait (graceful, the default) or SIGKILL, then
#                                             start it again as before; returns once it answers ApiVersions
#   parity/broker.sh stop DIR
# JAVA: the java binary (default: java). A start or restart waits up to $BROKER_START_TIMEOUT s (120).
set -uo pipefail
JAVA="${JAVA:-java}"
START_TIMEOUT="${BROKER_START_TIMEOUT:-120}"
usage() { sed -n '2,10p' "$0" >&2; exit 2; }

# answers PORT: the broker on PORT answers an ApiVersions v0 request (correlation id 1). A bound port alone
# is not enough: Apache accepts connections before it processes requests.
answers() {
  local got
  got="$(timeout 3 bash -c "exec 3<>/dev/tcp/127.0.0.1/$1 \
    && printf '\x00\x00\x00\x0a\x00\x12\x00\x00\x00\x00\x00\x01\xff\xff' >&3 && head -c 8 <&3" 2>/dev/null \
    | od -An -tx1 | tr -d ' \n')"
  [ "${got:8:8}" = 00000001 ]
}

# launch DIR: runs DIR/launch in the background and waits until the broker answers.
launch() {
  local dir="$1" port pid
  port="$(cat "$dir/port")"
  nohup bash "$dir/launch" >> "$dir/broker.log" 2>&1 < /dev/null &
  pid=$!
  echo "$pid" > "$dir/pid"
  for _ in $(seq 1 $((START_TIMEOUT * 5))); do
    answers "$port" && return 0
    kill -0 "$pid" 2>/dev/null || { echo "the broker in $dir exited at startup:" >&2; tail -n 30 "$dir/broker.log" >&2; return 1; }
    sleep 0.2
  done
  echo "the broker in $dir did not answer on 127.0.0.1:$port within ${START_TIMEOUT}s (see $dir/broker.log)" >&2
  return 1
}

# halt DIR SIGNAL: stops the broker with SIGNAL (TERM, then KILL after 30 s; or KILL at once).
halt() {
  local dir="$1" pid
  [ -f "$dir/pid" ] || return 0
  pid="$(cat "$dir/pid")"
  kill -s "$2" "$pid" 2>/dev/null || { rm -f "$dir/pid"; return 0; }
  for _ in $(seq 1 150); do
    kill -0 "$pid" 2>/dev/null || { rm -f "$dir/pid"; return 0; }
    sleep 0.2
  done
  kill -s KILL "$pid" 2>/dev/null
  while kill -0 "$pid" 2>/dev/null; do sleep 0.2; done
  rm -f "$dir/pid"
}

# configure_kaas PORT DIR: kaas with ACLs evaluated (the tools' principal ANONYMOUS a super user, so
# kafka-acls manages real ACLs) and a second log dir (kafka-reassign-partitions-log-dirs moves a partition);
# DIR/extra.env, if present, holds more of its variables (ShellToolParityIT's secured listeners), also after a restart.
configure_kaas() {
  [ -f "${KAAS_JAR:-}" ] || { echo "KAAS_JAR must name kaas.jar (bootstrap/target/kaas.jar)" >&2; exit 2; }
  cat > "$2/launch" <<EOF
export KAAS_PORT=$1 KAAS_HEALTH_PORT=0 KAAS_DATA_DIR='$2/data' KAAS_LOG_DIRS='bulk=$2/bulk'
export KAAS_GROUP_INITIAL_REBALANCE_DELAY_MS=0 KAAS_AUTHORIZATION_TYPE=simple KAAS_SUPER_USERS=User:ANONYMOUS
[ ! -f '$2/extra.env' ] || { set -a; . '$2/extra.env'; set +a; }
exec '$JAVA' -Xmx1g -jar '$KAAS_JAR'
EOF
}

# configure_apache PORT DIR: Apache Kafka 3.7.2 in KRaft combined mode, formatted on first start only;
# DIR/extra.properties, if present, is appended (a later key wins: ShellToolParityIT's secured listeners).
configure_apache() {
  [ -n "${KAFKA_CP:-}" ] || { echo "KAFKA_CP must hold Apache Kafka 3.7.2's classpath" >&2; exit 2; }
  local cport=$(($1 + 1))
  printf '%s\n' "$KAFKA_CP" > "$2/classpath"
  cat > "$2/server.properties" <<EOF
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$cport
listeners=PLAINTEXT://127.0.0.1:$1,CONTROLLER://127.0.0.1:$cport
advertised.listeners=PLAINTEXT://127.0.0.1:$1
controller.listener.names=CONTROLLER
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
log.dirs=$2/logs
num.partitions=1
offsets.topic.replication.factor=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
group.initial.rebalance.delay.ms=0
authorizer.class.name=org.apache.kafka.metadata.authorizer.StandardAuthorizer
super.users=User:ANONYMOUS
EOF
  [ ! -f "$2/extra.properties" ] || cat "$2/extra.properties" >> "$2/server.properties"
  printf 'log4j.rootLogger=WARN, f\nlog4j.appender.f=org.apache.log4j.FileAppender\nlog4j.appender.f.File=%s\nlog4j.appender.f.layout=org.apache.log4j.PatternLayout\nlog4j.appender.f.layout.ConversionPattern=[%%d] %%p %%m (%%c)%%n\n' \
    "$2/server.log" > "$2/log4j.properties"
  local java=("$JAVA" -Dlog4j.configuration="file:$2/log4j.properties" -cp "$KAFKA_CP")
  if [ ! -f "$2/logs/meta.properties" ]; then
    "${java[@]}" kafka.tools.StorageTool format -t "$("${java[@]}" kafka.tools.StorageTool random-uuid | tail -n 1)" \
      -c "$2/server.properties" >> "$2/broker.log" 2>&1 || { echo "formatting $2/logs failed (see $2/broker.log)" >&2; exit 1; }
  fi
  cat > "$2/launch" <<EOF
exec '$JAVA' -Xmx1g -Dlog4j.configuration='file:$2/log4j.properties' -cp "\$(cat '$2/classpath')" kafka.Kafka '$2/server.properties'
EOF
}

case "${1:-}" in
  start)
    [ $# = 4 ] || usage
    kind="$2"; port="$3"; dir="$(mkdir -p "$4" && cd "$4" && pwd)"
    echo "$port" > "$dir/port"
    case "$kind" in
      kaas) configure_kaas "$port" "$dir" ;;
      apache) configure_apache "$port" "$dir" ;;
      *) usage ;;
    esac
    launch "$dir" ;;
  restart)
    [ $# -ge 2 ] && [ -f "$2/launch" ] || usage
    case "${3:-graceful}" in
      graceful) halt "$2" TERM ;;
      kill) halt "$2" KILL ;;
      *) usage ;;
    esac
    echo "--- restart ($(date -u +%T), ${3:-graceful})" >> "$2/broker.log"
    launch "$2" ;;
  stop)
    [ $# = 2 ] || usage
    halt "$2" TERM ;;
  *) usage ;;
esac
