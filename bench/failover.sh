#!/usr/bin/env bash
# Cluster mode against Apache Kafka 3.7.2 in the shape people run it: three KRaft nodes (combined broker+controller,
# replication factor 3, min.insync.replicas=2) versus three kaas brokers on one shared directory (dev/cluster.sh),
# both on loopback on this machine, in the same run. For each: produce throughput at acks=all (Apache's
# ProducerPerformance, 1 KiB records, a topic of 6 partitions) with broker CPU summed over the cluster, then the
# unavailability after SIGKILL of a partition's leader - first a broker that is not the controller, then, on a fresh
# cluster, the controller itself: the time from the kill to the first acknowledgement on a partition the victim led, and
# the longest a record sent there every 20 ms waited (bench/FailoverProbe.java, acks=all, idempotent, retries on).
#   bench/failover.sh [--records N]
# Needs ../shared/tools/peer-kafka.sh, Java 17, Maven, python3. Writes the table to stdout.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
KSH="${KAFKA_SH:-$ROOT/../shared/tools/peer-kafka.sh}"
RECORDS=200000
while [ $# -gt 0 ]; do
  case "$1" in
    --records) RECORDS="$2"; shift 2 ;;
    *) sed -n '2,10p' "$0" >&2; exit 2 ;;
  esac
done
[ -f "$ROOT/bootstrap/target/kaas.jar" ] || (cd "$ROOT" && mvn -B -q -DskipTests package -pl bootstrap,dev/apiserver -am)
CP="$("$KSH" classpath)"
WORK="$(mktemp -d /tmp/kaas-failover-XXXX)"
APACHE_BASE=25092; KAAS_BASE=26092
PIDS=()

apache_start() { # dir
  local dir="$1" cid voters="" i
  cid=$(java -cp "$CP" kafka.tools.StorageTool random-uuid 2>/dev/null | tail -1)
  for i in 1 2 3; do voters="$voters${voters:+,}$i@127.0.0.1:$((APACHE_BASE + 10 + i))"; done
  for i in 1 2 3; do
    mkdir -p "$dir/n$i/logs"
    cat > "$dir/n$i/server.properties" <<P
process.roles=broker,controller
node.id=$i
controller.quorum.voters=$voters
listeners=PLAINTEXT://127.0.0.1:$((APACHE_BASE + i)),CONTROLLER://127.0.0.1:$((APACHE_BASE + 10 + i))
advertised.listeners=PLAINTEXT://127.0.0.1:$((APACHE_BASE + i))
controller.listener.names=CONTROLLER
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
log.dirs=$dir/n$i/logs
default.replication.factor=3
min.insync.replicas=2
offsets.topic.replication.factor=3
transaction.state.log.replication.factor=3
group.initial.rebalance.delay.ms=0
P
    printf 'log4j.rootLogger=WARN, f\nlog4j.appender.f=org.apache.log4j.FileAppender\nlog4j.appender.f.File=%s/server.log\nlog4j.appender.f.layout=org.apache.log4j.PatternLayout\nlog4j.appender.f.layout.ConversionPattern=[%%d] %%p %%m (%%c)%%n\n' "$dir/n$i" > "$dir/n$i/log4j.properties"
    java -cp "$CP" kafka.tools.StorageTool format -t "$cid" -c "$dir/n$i/server.properties" >/dev/null 2>&1
    nohup java -Xmx1g -Dlog4j.configuration="file:$dir/n$i/log4j.properties" -cp "$CP" kafka.Kafka \
      "$dir/n$i/server.properties" > "$dir/n$i/stdout.log" 2>&1 &
    echo $! > "$dir/n$i/pid"
  done
  for _ in $(seq 1 120); do
    "$KSH" tool kafka.admin.BrokerApiVersionsCommand --bootstrap-server "127.0.0.1:$((APACHE_BASE + 1))" 2>/dev/null \
      | grep -c '^127.0.0.1' | grep -q 3 && break
    sleep 1
  done
  echo "127.0.0.1:$((APACHE_BASE + 1)),127.0.0.1:$((APACHE_BASE + 2)),127.0.0.1:$((APACHE_BASE + 3))"
}
apache_pid() { cat "$1/n$2/pid"; }            # dir node-id
apache_pids() { cat "$1"/n*/pid; }
apache_stop() { local p; for p in $(apache_pids "$1"); do kill -9 "$p" 2>/dev/null || true; done; }
apache_controller() { # dir bootstrap: the active KRaft controller's node id
  "$KSH" tool org.apache.kafka.tools.MetadataQuorumCommand --bootstrap-server "$2" describe --status 2>/dev/null \
    | awk -F: '/LeaderId/ {gsub(/ /, "", $2); print $2}'
}
kaas_start() { bash "$ROOT/dev/cluster.sh" start 3 "$1" "$KAAS_BASE" | tail -1; }
kaas_pid() { cat "$1/broker-$2.pid"; }
kaas_pids() { cat "$1"/broker-*.pid; }
kaas_stop() { bash "$ROOT/dev/cluster.sh" stop "$1" >/dev/null 2>&1 || true; }
kaas_controller() { curl -s "http://127.0.0.1:$((KAAS_BASE + 200))/healthz" | python3 -c 'import json,sys; print(json.load(sys.stdin)["controller_id"])'; }
trap 'for d in "$WORK"/apache-*; do [ -d "$d" ] && apache_stop "$d"; done; for d in "$WORK"/kaas-*; do [ -d "$d" ] && kaas_stop "$d"; done' EXIT

create_topic() { # bootstrap
  "$KSH" tool org.apache.kafka.tools.TopicCommand --bootstrap-server "$1" --create --topic bench --partitions 6 >/dev/null
  for _ in $(seq 1 60); do
    [ "$("$KSH" tool org.apache.kafka.tools.TopicCommand --bootstrap-server "$1" --describe --topic bench 2>/dev/null \
      | grep -c 'Leader: [0-9]')" = 6 ] && return 0
    sleep 1
  done
}
partition_led_by() { # bootstrap broker-id: the first partition of bench it leads
  "$KSH" tool org.apache.kafka.tools.TopicCommand --bootstrap-server "$1" --describe --topic bench 2>/dev/null \
    | awk -v id="$2" '{p = ""; l = ""; for (i = 1; i < NF; i++) { if ($i == "Partition:") p = $(i + 1); if ($i == "Leader:") l = $(i + 1) }
                        if (p != "" && l == id) { print p; exit } }'
}
cpu_ticks() { local t=0 p; for p in "$@"; do t=$((t + $(awk '{print $14+$15}' "/proc/$p/stat"))); done; echo "$t"; }

throughput() { # name bootstrap pids...
  local name="$1" bootstrap="$2"; shift 2
  local perf=(org.apache.kafka.tools.ProducerPerformance --topic bench --record-size 1024 --throughput -1
    --producer-props bootstrap.servers="$bootstrap" acks=all)
  "$KSH" tool "${perf[@]}" --num-records $((RECORDS / 4)) >/dev/null 2>&1
  local t0 t1 line
  t0=$(cpu_ticks "$@"); line=$("$KSH" tool "${perf[@]}" --num-records "$RECORDS" 2>/dev/null | tail -1); t1=$(cpu_ticks "$@")
  python3 - "$name" "$line" "$t0" "$t1" "$(getconf CLK_TCK)" "$RECORDS" <<'PY'
import re, sys
name, line, t0, t1, hz, n = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6])
rate = float(re.search(r'([\d.]+) records/sec', line).group(1))
avg = float(re.search(r'([\d.]+) ms avg latency', line).group(1))
cpu = (t1 - t0) / hz
print(f"| {name} | produce 1 KiB acks=all | {rate:,.0f} rec/s | avg latency {avg:.1f} ms | broker CPU {cpu:.1f} s ({cpu / n * 1e6:.0f} µs/record) |")
PY
}

unavailability() { # name bootstrap partition victim-pid
  local name="$1" bootstrap="$2" partition="$3" victim="$4" out="$WORK/probe-$RANDOM.txt" killed
  java -cp "$CP" "$ROOT/bench/FailoverProbe.java" "$bootstrap" bench "$partition" 40 > "$out" 2>/dev/null &
  local probe=$!
  sleep 10
  killed=$(date +%s%3N); kill -9 "$victim"
  wait "$probe" || true
  python3 - "$name" "$out" "$killed" <<'PY'
import sys
name, path, killed = sys.argv[1], sys.argv[2], int(sys.argv[3])
rows = [l.split() for l in open(path) if l.strip()]
acked = [(int(s), int(a)) for s, a, *rest in rows if a.isdigit()]
failed = sum(1 for r in rows if r[1] == "failed")
after = [a for s, a in acked if s >= killed]
first_gap = (min(after) - killed) if after else float("nan")
worst = max((a - s for s, a in acked if a >= killed - 5000), default=float("nan"))
print(f"| {name} | SIGKILL of a partition's leader | first ack of a record sent after the kill: {first_gap} ms | longest wait of a record: {worst} ms | {failed} records failed |")
PY
}

echo "| system | scenario | result | | | |"
echo "|---|---|---|---|---|---|"
for round in non-controller controller; do
  A="$WORK/apache-$round"; K="$WORK/kaas-$round"
  ab=$(apache_start "$A"); create_topic "$ab"
  [ "$round" = non-controller ] && throughput "Apache 3.7.2, 3 nodes RF=3" "$ab" $(apache_pids "$A")
  ctl=$(apache_controller "$A" "$ab")
  if [ "$round" = controller ]; then victim=$ctl; else victim=$(( ctl % 3 + 1 )); fi
  p=$(partition_led_by "$ab" "$victim")
  unavailability "Apache ($round: node $victim, controller $ctl, partition $p)" "$ab" "$p" "$(apache_pid "$A" "$victim")"
  apache_stop "$A"

  kb=$(kaas_start "$K"); create_topic "$kb"
  [ "$round" = non-controller ] && throughput "kaas, 3 brokers, shared dir" "$kb" $(kaas_pids "$K")
  ctl=$(kaas_controller)
  if [ "$round" = controller ]; then victim=$ctl; else victim=$(( (ctl + 1) % 3 )); fi
  p=$(partition_led_by "$kb" "$victim")
  unavailability "kaas ($round: broker $victim, controller $ctl, partition $p)" "$kb" "$p" "$(kaas_pid "$K" "$victim")"
  kaas_stop "$K"
done
